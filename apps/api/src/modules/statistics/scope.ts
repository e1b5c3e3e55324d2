import type { statisticsSchemas } from '@edgekeep/contract';
import type { Scope } from '../../analytics/types';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { domainTagsOfSites } from '../domains/repo';
import { everySiteKind, sitesRepo } from '../sites/repo';
import { visibleZones } from '../zones/repo';
import { clientOf } from '../zones/service';
import { resolveWindow, type Window } from './window';

type SiteFilter = Pick<statisticsSchemas.StatisticsFilter, 'reservedZone' | 'reservedSite' | 'reservedSiteType' | 'reservedDomain' | 'reservedDomainTag'>;

/**
 * The ids of the sites the caller reaches, or of those it chose; a chosen site it does not reach answers like a
 * missing one.
 */
export async function reachableSiteIds(deps: AppDeps, principal: Principal, chosen?: number[]) {
  const ids = (await (await sitesRepo(deps, principal).ids()).execute()).map((r) => r.id);
  if (!chosen?.length) return ids;
  const reached = new Set(ids);
  for (const id of chosen) if (!reached.has(id)) throw notFound('site');
  return [...new Set(chosen)];
}

/** The zones a caller may choose: a client's visible zones, a user's sites' zones. */
async function reachableZones(deps: AppDeps, principal: Principal, siteZones: number[]) {
  if (principal.tier !== 'client') return new Set(siteZones);
  const zones = await visibleZones(deps, await clientOf(deps, principal)).select('zones.id').execute();
  return new Set([...siteZones, ...zones.map((z) => z.id)]);
}

/** The sites a caller reaches with their zones: an admin's are every site of the platform. */
const reachedSites = (deps: AppDeps, principal: Principal) => (principal.tier === 'admin' ? everySiteKind(deps.db) : sitesRepo(deps, principal).kinds());

/**
 * The sites and domains a statistics filter covers. Domains are left out when every domain of the sites counts;
 * a filter that leaves nothing answers no sites.
 */
export async function filterSites(deps: AppDeps, principal: Principal, f: SiteFilter): Promise<{ siteIds: number[]; domains?: string[] }> {
  const reached = await reachedSites(deps, principal);
  let sites = reached;
  if (f.reservedSite?.length) {
    const chosen = new Set(f.reservedSite);
    sites = sites.filter((s) => chosen.has(s.id));
    if (sites.length < chosen.size) throw notFound('site');
  }
  if (f.reservedZone?.length) {
    const zones = await reachableZones(deps, principal, reached.map((s) => s.zone_id));
    if (f.reservedZone.some((z) => !zones.has(z))) throw notFound('zone');
    sites = sites.filter((s) => f.reservedZone!.includes(s.zone_id));
  }
  if (f.reservedSiteType?.length) {
    sites = sites.filter((s) => f.reservedSiteType!.includes(s.has_l4 ? '7+4' : '7'));
  }
  const siteIds = sites.map((s) => s.id);
  let domains = f.reservedDomain?.length ? [...new Set(f.reservedDomain.map((d) => d.toLowerCase()))] : undefined;
  if (f.reservedDomainTag?.length && siteIds.length) {
    const rows = await domainTagsOfSites(deps.db, siteIds);
    const tagged = rows.filter((d) => d.tags.some((t) => f.reservedDomainTag!.includes(t))).map((d) => d.name);
    domains = domains ? domains.filter((d) => tagged.includes(d)) : tagged;
  }
  if (domains && !domains.length) return { siteIds: [] };
  return { siteIds, domains };
}

/** A statistics filter resolved into the store's scope, and the window it covers. */
export async function resolveScope(deps: AppDeps, principal: Principal, f: statisticsSchemas.StatisticsFilter): Promise<{ scope: Scope; window: Window }> {
  const window = resolveWindow(f);
  const { siteIds, domains } = await filterSites(deps, principal, f);
  return { scope: { siteIds, domains, from: window.from, to: window.to, intervalMinutes: window.intervalMinutes, timeZone: window.timeZone, outcomes: f.outcomes }, window };
}
