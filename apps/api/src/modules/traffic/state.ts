import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import type { AppDeps } from '../../deps';
import { keepTrafficState, limitedSites, sitesToEvaluate } from './repo';
import { monthOf, usageOf } from './usage';
import { notifyOnChange } from '../notifications/events';
import { sitesChanged } from '../sites/service';

/**
 * Evaluates sites' traffic this month (all sites, or those given) and keeps their state; a site whose product
 * says to stop once the allowance is used up becomes `limited`, which its zone's nodes enforce (929). Sites
 * whose limited flag changed are built again for their zones' nodes.
 */
export async function evaluateTraffic(deps: AppDeps, { siteIds }: { siteIds?: number[] } = {}) {
  if (siteIds && !siteIds.length) return;
  const sites = await sitesToEvaluate(deps.db, siteIds);
  if (!sites.length) return;
  const usage = await usageOf(deps, { sites: sites.map((s) => ({ siteId: s.id, productLimits: s.limits })), month: monthOf() });
  const flipped: { id: number; zoneID: number }[] = [];
  for (const site of sites) {
    const u = usage.get(site.id)!;
    const limited = u.trafficState === 'limited' && u.stops ? 1 : 0;
    if (site.state === u.trafficState && (site.limited ?? 0) === limited) continue;
    if ((site.limited ?? 0) !== limited) flipped.push({ id: site.id, zoneID: site.zone_id });
    await keepTrafficState(deps.db, site.id, u.trafficState, limited);
    const kind = u.trafficState === 'normal' ? null : u.trafficState === 'warning' ? 'traffic.warning' : 'traffic.limited';
    await notifyOnChange(deps, { subject: `traffic:${site.id}`, state: u.trafficState }, kind && { kind, accountId: site.user_id, subject: site.name });
  }
  if (flipped.length) {
    deps.log.info({ zones: [...new Set(flipped.map((s) => s.zoneID))], sites: flipped.length }, 'site traffic limits changed');
    await sitesChanged(deps, flipped);
  }
}


/** The sites whose traffic is limited, marked in their data (trafficLimited: the edge answers 929 for them). */
export const trafficEdge: EdgeFeature = {
  name: 'traffic limits',
  siteData: async ({ deps }, sites) => {
    if (!sites.length) return new Map();
    const limited = await limitedSites(deps.db, sites.map((s) => s.id));
    return new Map(limited.map((id) => [id, { trafficLimited: true }]));
  },
};
