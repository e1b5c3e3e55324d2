import { Codes, edge, ITEM_LIST_MAX, messageOf, type firewallSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, type ErrorItem } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { firewallRepo } from './repo';

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

const listOf = async (deps: AppDeps, principal: Principal, siteId: number, list: List) => {
  const site = await sitesRepo(deps, principal).get(siteId);
  return { site, entries: firewallRepo(deps.db, site).ipList(list) };
};

export async function listRules(deps: AppDeps, principal: Principal, siteId: number, list: List, query: z.infer<typeof firewallSchemas.ipRulesQuery>) {
  const { entries } = await listOf(deps, principal, siteId, list);
  const page = await entries.page(query);
  return { data: page.data.map(toItem), total: page.total };
}

/** Adds entries, all or none: each bad or repeated one is listed in one 101009 with the entry as target. */
export async function addRules(deps: AppDeps, principal: Principal, siteId: number, list: List, body: { ips: string[]; memo: string } & Conditions) {
  const { site, entries } = await listOf(deps, principal, siteId, list);
  const errors: ErrorItem[] = [];
  const seen = new Set<string>();
  for (const ip of body.ips) {
    const problem = entryError(list, ip);
    if (problem) errors.push({ code: Codes.Parameter, message: problem, targets: [ip] });
    else if (seen.has(ip)) errors.push({ code: Codes.Duplicated, message: messageOf(Codes.Duplicated, 'en_US')!, targets: [ip] });
    seen.add(ip);
  }
  for (const ip of await entries.present([...seen])) errors.push({ code: Codes.Duplicated, message: messageOf(Codes.Duplicated, 'en_US')!, targets: [ip] });
  if (errors.length) throw new ApiError(Codes.MultipleErrors, { errors, extra: { count: errors.length } });
  if ((await entries.count()) + seen.size > ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  const at = now();
  const rows = await entries.insert([...seen].map((ip) => ({ ip, memo: body.memo, enabled: 1 as const, created_at: at, ...conditionColumns(body) })));
  await sitesChanged(deps, [site]);
  return rows.map(toItem);
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, list: List, body: { id: number; ip: string; memo?: string; enabled?: boolean } & Conditions) {
  const { site, entries } = await listOf(deps, principal, siteId, list);
  await entries.get(body.id);
  const problem = entryError(list, body.ip);
  if (problem) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'ip', message: problem }] } });
  if (await entries.ipTaken(body.ip, body.id)) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'ip', message: 'Data already exists!' }] } });
  await entries.update(body.id, {
    ip: body.ip,
    ...conditionColumns(body),
    ...(body.memo === undefined ? {} : { memo: body.memo }),
    ...(body.enabled === undefined ? {} : { enabled: body.enabled ? 1 : 0 }),
  });
  await sitesChanged(deps, [site]);
  return toItem(await entries.get(body.id));
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, list: List, ids: number[], enabled: boolean) {
  const { site, entries } = await listOf(deps, principal, siteId, list);
  await entries.owned(ids);
  await entries.setEnabled(ids, enabled);
  await sitesChanged(deps, [site]);
}

/** Spec §4: an item in use must be disabled before removal. */
export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, list: List, ids: number[]) {
  const { entries } = await listOf(deps, principal, siteId, list);
  const enabled = (await entries.owned(ids)).filter((r) => r.enabled === 1).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled entries before removing them', ids: enabled } });
  await entries.remove(ids);
}
