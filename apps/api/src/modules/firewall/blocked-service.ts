import { Codes, type agentProtocol, type blockedIpSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { activeBlocks, firewallRepo, replaceNodeBlocks, sitesBlockingNow, siteIdsOfZone } from './repo';

type Query = z.infer<typeof blockedIpSchemas.userBlockedIpsQuery>;
type Item = z.infer<typeof blockedIpSchemas.blockedIpItem>;

/** A node's report of what it blocks now replaces what it reported before; sites outside its zone are ignored. */
export async function recordBlocked(deps: AppDeps, node: { id: number; zone_id: number }, blocked: NonNullable<agentProtocol.Report['blocked']>) {
  const sites = new Set(await siteIdsOfZone(deps.db, node.zone_id));
  const at = now();
  const seen = new Set<string>();
  const rows = blocked
    .filter((b) => sites.has(b.siteId) && !seen.has(`${b.siteId}|${b.ip}`) && seen.add(`${b.siteId}|${b.ip}`))
    .map((b) => ({ site_id: b.siteId, ip: b.ip, cause: b.cause, expires_at: new Date(b.expiresAt * 1000).toISOString(), reported_at: at }));
  await replaceNodeBlocks(deps.db, node.id, rows);
}

const split = (v?: string) => (v ?? '').split(/[,\s]+/).map((x) => x.trim()).filter(Boolean);
const SORTABLE = ['ip', 'cause', 'expiresAt', 'siteID'] as const;

/** Current blocks of some sites, one row per site and address (over the nodes holding it), filtered, sorted and paged. */
async function listOf(deps: AppDeps, sites: ReachedSite[], query: Query) {
  if (query.sortBy !== undefined && !(SORTABLE as readonly string[]).includes(query.sortBy)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${SORTABLE.join(', ')}` }] } });
  }
  if (!sites.length) return { data: [], total: 0 };
  const names = new Map(sites.map((s) => [s.id, s.name]));
  const rows = await activeBlocks(deps.db, sites);
  const grouped = new Map<string, Item>();
  for (const r of rows) {
    const key = `${r.site_id}|${r.ip}`;
    const item = grouped.get(key);
    if (!item) grouped.set(key, { siteID: r.site_id, siteName: names.get(r.site_id) ?? '', ip: r.ip, cause: r.cause, expiresAt: r.expires_at, nodes: 1 });
    else {
      item.nodes += 1;
      if (r.expires_at > item.expiresAt) Object.assign(item, { expiresAt: r.expires_at, cause: r.cause });
    }
  }
  const ips = split(query.ips);
  const causes = split(query.causes);
  let items = [...grouped.values()];
  if (ips.length) items = items.filter((i) => ips.some((ip) => i.ip.includes(ip)));
  if (causes.length) items = items.filter((i) => causes.some((c) => i.cause === c || i.cause.startsWith(`${c}:`)));
  const sortBy = (query.sortBy ?? 'expiresAt') as (typeof SORTABLE)[number];
  const desc = query.orderBy === undefined ? true : query.orderBy.startsWith('desc');
  items.sort((a, b) => (desc ? -1 : 1) * (String(a[sortBy]).localeCompare(String(b[sortBy]), undefined, { numeric: true }) || a.ip.localeCompare(b.ip)));
  const start = (query.page - 1) * query.pageSize;
  return { data: items.slice(start, start + query.pageSize), total: items.length };
}

export async function listSiteBlocked(deps: AppDeps, principal: Principal, siteId: number, query: Query) {
  return listOf(deps, [await sitesRepo(deps, principal).get(siteId)], query);
}

export async function listUserBlocked(deps: AppDeps, principal: Principal, query: Query) {
  return listOf(deps, await sitesRepo(deps, principal).all({ siteId: query.siteID, zoneId: query.zoneID }), query);
}

/** How long a lift stays in the nodes' data: longer than any block lasts. */
export const LIFT_KEEP_SECONDS = 8 * 86_400;

/**
 * Forgets the blocks and has every node of the site's zone lift them: a lift in the site's edge data (no reload)
 * removes the blocks made before it, so a later block of the same address stands.
 */
async function unblock(deps: AppDeps, site: ReachedSite, ips?: string[]) {
  const removed = await firewallRepo(deps.db, site).unblock(ips, LIFT_KEEP_SECONDS);
  await sitesChanged(deps, [site]);
  return removed;
}

export async function unblockSite(deps: AppDeps, principal: Principal, siteId: number, ips?: string[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return { removed: await unblock(deps, site, ips && [...new Set(ips)]) };
}

export async function unblockUser(deps: AppDeps, principal: Principal, blocks: { siteID: number; ip: string }[]) {
  const bySite = new Map<number, string[]>();
  for (const b of blocks) bySite.set(b.siteID, [...(bySite.get(b.siteID) ?? []), b.ip]);
  const sites = await Promise.all([...bySite.keys()].map((id) => sitesRepo(deps, principal).get(id)));
  let removed = 0;
  for (const site of sites) removed += await unblock(deps, site, [...new Set(bySite.get(site.id))]);
  return { removed };
}

/** Unblock all of the client mode: every site in reach (one site's foreign id answers as missing) that blocks anything now. */
export async function unblockAllSites(deps: AppDeps, principal: Principal, filter: { siteID?: number; zoneID?: number }) {
  if (filter.siteID) await sitesRepo(deps, principal).get(filter.siteID);
  const sites = await sitesRepo(deps, principal).all({ siteId: filter.siteID, zoneId: filter.zoneID });
  if (!sites.length) return { removed: 0 };
  const blocking = await sitesBlockingNow(deps.db, sites);
  let removed = 0;
  for (const site of sites.filter((s) => blocking.includes(s.id))) removed += await unblock(deps, site);
  return { removed };
}
