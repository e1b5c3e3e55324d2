import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
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
  let q = deps.db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .leftJoin('site_traffic_states as st', 'st.site_id', 'sites.id')
    .select(['sites.id', 'sites.name', 'sites.user_id', 'products.limits', 'products.zone_id', 'st.state', 'st.limited']);
  if (siteIds) q = q.where('sites.id', 'in', siteIds);
  const sites = await q.execute();
  if (!sites.length) return;
  const usage = await usageOf(deps, { sites: sites.map((s) => ({ siteId: s.id, productLimits: s.limits })), month: monthOf() });
  const flipped: { id: number; zoneID: number }[] = [];
  for (const site of sites) {
    const u = usage.get(site.id)!;
    const limited = u.trafficState === 'limited' && u.stops ? 1 : 0;
    if (site.state === u.trafficState && (site.limited ?? 0) === limited) continue;
    if ((site.limited ?? 0) !== limited) flipped.push({ id: site.id, zoneID: site.zone_id });
    await deps.db
      .insertInto('site_traffic_states')
      .values({ site_id: site.id, state: u.trafficState, limited, evaluated_at: now() })
      .onConflict((oc) => oc.column('site_id').doUpdateSet({ state: u.trafficState, limited, evaluated_at: now() }))
      .execute();
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
    const rows = await deps.db.selectFrom('site_traffic_states').select('site_id').where('site_id', 'in', sites.map((s) => s.id)).where('limited', '=', 1).execute();
    return new Map(rows.map((r) => [r.site_id, { trafficLimited: true }]));
  },
};
