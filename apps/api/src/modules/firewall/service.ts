import { Codes, edge, ITEM_LIST_MAX, messageOf, type firewallSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { inBatches, now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound, type ErrorItem } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';

type List = (typeof firewallSchemas.LISTS)[number];
type Row = { id: number; ip: string; memo: string; enabled: number; created_at: string; url: string; methods: string; port: number };
const toItem = (r: Row) => ({
  id: r.id,
  ip: r.ip,
  memo: r.memo,
  url: r.url,
  methodValues: r.methods ? r.methods.split(',') : [],
  port: r.port,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
});
type Conditions = { url?: string; methodValues?: string[]; port?: number };
const conditionColumns = (c: Conditions) => ({
  ...(c.url === undefined ? {} : { url: c.url }),
  ...(c.methodValues === undefined ? {} : { methods: c.methodValues.join(',') }),
  ...(c.port === undefined ? {} : { port: c.port }),
});

/** Only the blacklist takes ranges (spec §5); both take addresses and CIDR blocks. */
function entryError(list: List, ip: string) {
  if (!edge.ipEntry.safeParse(ip).success) return 'Wrong Fromat!';
  if (list === 'whitelist' && ip.includes('-')) return 'the whitelist takes addresses and CIDR blocks, not ranges';
  return undefined;
}

export async function listRules(deps: AppDeps, principal: Principal, siteId: number, list: List, query: z.infer<typeof firewallSchemas.ipRulesQuery>) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('site_ip_rules').selectAll().where('site_id', '=', siteId).where('list', '=', list);
  if (query.ip) q = q.where('ip', 'like', `%${query.ip}%`);
  const page = await paginate(q, { page: query, sortable: { ip: 'ip', port: 'port', url: 'url', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
  return { data: page.data.map(toItem), total: page.total };
}

/** Adds entries, all or none: each bad or repeated one is listed in one 101009 with the entry as target. */
export async function addRules(deps: AppDeps, principal: Principal, siteId: number, list: List, body: { ips: string[]; memo: string } & Conditions) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const errors: ErrorItem[] = [];
  const seen = new Set<string>();
  for (const ip of body.ips) {
    const problem = entryError(list, ip);
    if (problem) errors.push({ code: Codes.Parameter, message: problem, targets: [ip] });
    else if (seen.has(ip)) errors.push({ code: Codes.Duplicated, message: messageOf(Codes.Duplicated, 'en_US')!, targets: [ip] });
    seen.add(ip);
  }
  const existing = await deps.db.selectFrom('site_ip_rules').select('ip').where('site_id', '=', siteId).where('list', '=', list).where('ip', 'in', [...seen]).execute();
  for (const { ip } of existing) errors.push({ code: Codes.Duplicated, message: messageOf(Codes.Duplicated, 'en_US')!, targets: [ip] });
  if (errors.length) throw new ApiError(Codes.MultipleErrors, { errors, extra: { count: errors.length } });
  const count = await deps.db.selectFrom('site_ip_rules').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).where('list', '=', list).executeTakeFirst();
  if (toCount(count?.n as number) + seen.size > ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  const at = now();
  const values = [...seen].map((ip) => ({ site_id: siteId, list, ip, memo: body.memo, enabled: 1 as const, created_at: at, ...conditionColumns(body) }));
  const rows = await deps.db.transaction().execute(async (tx) => {
    const made = [];
    for (const batch of inBatches(values)) made.push(...(await tx.insertInto('site_ip_rules').values(batch).returningAll().execute()));
    return made;
  });
  await sitesChanged(deps, [site]);
  return rows.map(toItem);
}

async function ruleOf(deps: AppDeps, siteId: number, list: List, id: number) {
  const row = await deps.db.selectFrom('site_ip_rules').selectAll().where('id', '=', id).where('site_id', '=', siteId).where('list', '=', list).executeTakeFirst();
  if (!row) throw notFound('entry');
  return row;
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, list: List, body: { id: number; ip: string; memo?: string; enabled?: boolean } & Conditions) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await ruleOf(deps, siteId, list, body.id);
  const problem = entryError(list, body.ip);
  if (problem) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'ip', message: problem }] } });
  const clash = await deps.db.selectFrom('site_ip_rules').select('id').where('site_id', '=', siteId).where('list', '=', list).where('ip', '=', body.ip).where('id', '!=', body.id).executeTakeFirst();
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'ip', message: 'Data already exists!' }] } });
  await deps.db
    .updateTable('site_ip_rules')
    .set({ ip: body.ip, ...conditionColumns(body), ...(body.memo === undefined ? {} : { memo: body.memo }), ...(body.enabled === undefined ? {} : { enabled: body.enabled ? 1 : 0 }) })
    .where('id', '=', body.id)
    .execute();
  await sitesChanged(deps, [site]);
  return toItem(await ruleOf(deps, siteId, list, body.id));
}

async function ownedRules(deps: AppDeps, siteId: number, list: List, ids: number[]) {
  const rows = await deps.db.selectFrom('site_ip_rules').select(['id', 'enabled']).where('site_id', '=', siteId).where('list', '=', list).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('entry');
  return rows;
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, list: List, ids: number[], enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await ownedRules(deps, siteId, list, ids);
  await deps.db.updateTable('site_ip_rules').set({ enabled: enabled ? 1 : 0 }).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

/** Spec §4: an item in use must be disabled before removal. */
export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, list: List, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const rows = await ownedRules(deps, siteId, list, ids);
  const enabled = rows.filter((r) => r.enabled === 1).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled entries before removing them', ids: enabled } });
  await deps.db.deleteFrom('site_ip_rules').where('id', 'in', ids).execute();
}
