import { Codes, type agentProtocol, type blockedIpSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { inBatches, now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';

type Query = z.infer<typeof blockedIpSchemas.userBlockedIpsQuery>;
type Item = z.infer<typeof blockedIpSchemas.blockedIpItem>;

/** A node's report of what it blocks now replaces what it reported before; sites outside its zone are ignored. */
export async function recordBlocked(deps: AppDeps, node: { id: number; zone_id: number }, blocked: NonNullable<agentProtocol.Report['blocked']>) {
  const sites = new Set(
    (await deps.db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select('sites.id').where('products.zone_id', '=', node.zone_id).execute()).map((s) => s.id),
  );
  const at = now();
  const seen = new Set<string>();
  const rows = blocked
    .filter((b) => sites.has(b.siteId) && !seen.has(`${b.siteId}|${b.ip}`) && seen.add(`${b.siteId}|${b.ip}`))
    .map((b) => ({ site_id: b.siteId, node_id: node.id, ip: b.ip, cause: b.cause, expires_at: new Date(b.expiresAt * 1000).toISOString(), reported_at: at }));
  await deps.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('blocked_ips').where('node_id', '=', node.id).execute();
    for (const batch of inBatches(rows)) await tx.insertInto('blocked_ips').values(batch).execute();
  });
}

const split = (v?: string) => (v ?? '').split(/[,\s]+/).map((x) => x.trim()).filter(Boolean);
const SORTABLE = ['ip', 'cause', 'expiresAt', 'siteID'] as const;

/** Current blocks of some sites, one row per site and address (over the nodes holding it), filtered, sorted and paged. */
async function listOf(deps: AppDeps, sites: Map<number, string>, query: Query) {
  if (query.sortBy !== undefined && !(SORTABLE as readonly string[]).includes(query.sortBy)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${SORTABLE.join(', ')}` }] } });
  }
  if (!sites.size) return { data: [], total: 0 };
  const rows = await deps.db.selectFrom('blocked_ips').selectAll().where('site_id', 'in', [...sites.keys()]).where('expires_at', '>', now()).execute();
  const grouped = new Map<string, Item>();
  for (const r of rows) {
    const key = `${r.site_id}|${r.ip}`;
    const item = grouped.get(key);
    if (!item) grouped.set(key, { siteID: r.site_id, siteName: sites.get(r.site_id) ?? '', ip: r.ip, cause: r.cause, expiresAt: r.expires_at, nodes: 1 });
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
  const site = await sitesRepo(deps, principal).get(siteId);
  return listOf(deps, new Map([[site.id, site.name]]), query);
}

export async function listUserBlocked(deps: AppDeps, principal: Principal, query: Query) {
  let q = await sitesRepo(deps, principal).query();
  if (query.siteID) q = q.where('sites.id', '=', query.siteID);
  if (query.zoneID) q = q.where('products.zone_id', '=', query.zoneID);
  const sites = await q.execute();
  return listOf(deps, new Map(sites.map((s) => [s.id, s.name])), query);
}

/** How long a lift stays in the nodes' data: longer than any block lasts. */
export const LIFT_KEEP_SECONDS = 8 * 86_400;

/**
 * Forgets the blocks and has every node of the site's zone lift them: a lift in the site's edge data (no reload)
 * removes the blocks made before it, so a later block of the same address stands.
 */
async function unblock(deps: AppDeps, site: { id: number; zoneID: number }, ips?: string[]) {
  let active = deps.db.selectFrom('blocked_ips').select('ip').where('site_id', '=', site.id).where('expires_at', '>', now());
  let del = deps.db.deleteFrom('blocked_ips').where('site_id', '=', site.id);
  if (ips) {
    active = active.where('ip', 'in', ips);
    del = del.where('ip', 'in', ips);
  }
  const removed = new Set((await active.execute()).map((r) => r.ip)).size;
  await del.execute();
  const at = Math.ceil(Date.now() / 1000);
  await deps.db.deleteFrom('blocked_ip_lifts').where('lifted_at', '<', at - LIFT_KEEP_SECONDS).execute();
  const lifts: { site_id: number; ip: string | null; lifted_at: number }[] = ips ? ips.map((ip) => ({ site_id: site.id, ip, lifted_at: at })) : [{ site_id: site.id, ip: null, lifted_at: at }];
  for (const batch of inBatches(lifts)) await deps.db.insertInto('blocked_ip_lifts').values(batch).execute();
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
  let q = await sitesRepo(deps, principal).query();
  if (filter.siteID) q = q.where('sites.id', '=', filter.siteID);
  if (filter.zoneID) q = q.where('products.zone_id', '=', filter.zoneID);
  const ids = (await q.execute()).map((s) => s.id);
  if (!ids.length) return { removed: 0 };
  const blocking = await deps.db.selectFrom('blocked_ips').select('site_id').distinct().where('site_id', 'in', ids).where('expires_at', '>', now()).execute();
  let removed = 0;
  for (const { site_id } of blocking) removed += await unblock(deps, await sitesRepo(deps, principal).get(site_id));
  return { removed };
}
