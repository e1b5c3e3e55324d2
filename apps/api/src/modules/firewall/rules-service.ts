import { Codes, ITEM_LIST_MAX, firewallRuleSchemas as s, type PageQuery } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readJson } from '../../db/json-column';

type Kind = s.RuleKind;
export type Fields = Record<string, unknown>;
export type CreateFields = Fields & { enabled: boolean };
export type UpdateFields = Fields & { id: number; enabled?: boolean };
type Row = { id: number; kind: string; body: string; priority: number; enabled: number; created_at: string };
export type RulesQuery = PageQuery & { enabled?: boolean; isBlack?: boolean; names?: string };

/** A rule's body read as its kind's fields. */
export const readRuleBody = (kind: Kind, body: string): Fields => readJson(`site_firewall_rules.body (${kind})`, s.RULE_KINDS[kind].fields, body);
const toItem = (r: Row): Fields & { id: number; enabled: boolean; createdAt: string } => ({ ...readRuleBody(r.kind as Kind, r.body), id: r.id, enabled: r.enabled === 1, createdAt: r.created_at });
/** The fields the rule is made of, in a fixed order, so two equal rules have equal bodies. */
const bodyOf = (kind: Kind, fields: Fields) => {
  const shape = s.RULE_KINDS[kind].fields.shape as Record<string, unknown>;
  return JSON.stringify(Object.fromEntries(Object.keys(shape).map((k) => [k, fields[k]])));
};

async function rowsOf(deps: AppDeps, siteId: number, kind: Kind) {
  return deps.db.selectFrom('site_firewall_rules').selectAll().where('site_id', '=', siteId).where('kind', '=', kind).orderBy('id').execute();
}

const compare = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? '')));

/** Lists are at most 5000 rules: filtered, sorted and paged in memory over the parsed bodies. */
export async function listRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, query: RulesQuery) {
  await sitesRepo(deps, principal).get(siteId);
  const sortable = ['createdAt', 'enabled', ...Object.keys(s.RULE_KINDS[kind].fields.shape)];
  if (query.sortBy !== undefined && !sortable.includes(query.sortBy)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${sortable.join(', ')}` }] } });
  }
  const names = query.names?.split(',').map((n) => n.trim().toUpperCase()).filter(Boolean) ?? [];
  let items = (await rowsOf(deps, siteId, kind)).map(toItem);
  if (query.enabled !== undefined) items = items.filter((i) => i.enabled === query.enabled);
  if (query.isBlack !== undefined) items = items.filter((i) => i.isBlack === query.isBlack);
  if (names.length) items = items.filter((i) => (i.geoIDs as string[] | undefined)?.some((g) => names.includes(g)));
  const sortBy = query.sortBy ?? (kind === 'limitReq' ? 'priority' : 'createdAt');
  const desc = query.orderBy === undefined ? sortBy === 'createdAt' : query.orderBy.startsWith('desc');
  items.sort((a, b) => (desc ? -1 : 1) * (compare(a[sortBy], b[sortBy]) || a.id - b.id));
  const start = (query.page - 1) * query.pageSize;
  return { data: items.slice(start, start + query.pageSize), total: items.length };
}

async function assertUnique(deps: AppDeps, siteId: number, kind: Kind, body: string, except?: number) {
  const clash = (await rowsOf(deps, siteId, kind)).find((r) => r.body === body && r.id !== except);
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { id: clash.id } });
}

export async function createRule(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, fields: CreateFields) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rows = await rowsOf(deps, siteId, kind);
  if (rows.length >= ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  const body = bodyOf(kind, fields);
  await assertUnique(deps, siteId, kind, body);
  const row = await deps.db
    .insertInto('site_firewall_rules')
    .values({ site_id: siteId, kind, body, priority: Number(fields.priority ?? 0), enabled: fields.enabled ? 1 : 0, created_at: now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  await sitesChanged(deps, [site]);
  return toItem(row);
}

async function ruleOf(deps: AppDeps, siteId: number, kind: Kind, id: number) {
  const row = await deps.db.selectFrom('site_firewall_rules').selectAll().where('id', '=', id).where('site_id', '=', siteId).where('kind', '=', kind).executeTakeFirst();
  if (!row) throw notFound('rule');
  return row;
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, fields: UpdateFields) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await ruleOf(deps, siteId, kind, fields.id);
  const body = bodyOf(kind, fields);
  await assertUnique(deps, siteId, kind, body, fields.id);
  await deps.db
    .updateTable('site_firewall_rules')
    .set({ body, priority: Number(fields.priority ?? 0), ...(fields.enabled === undefined ? {} : { enabled: fields.enabled ? 1 : 0 }) })
    .where('id', '=', fields.id)
    .execute();
  await sitesChanged(deps, [site]);
  return toItem(await ruleOf(deps, siteId, kind, fields.id));
}

async function ownedRules(deps: AppDeps, siteId: number, kind: Kind, ids: number[]) {
  const rows = await deps.db.selectFrom('site_firewall_rules').select(['id', 'enabled']).where('site_id', '=', siteId).where('kind', '=', kind).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('rule');
  return rows;
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, ids: number[], enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await ownedRules(deps, siteId, kind, ids);
  await deps.db.updateTable('site_firewall_rules').set({ enabled: enabled ? 1 : 0 }).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

/** Spec §4: a rule in use (enabled) must be closed before removal. */
export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const enabled = (await ownedRules(deps, siteId, kind, ids)).filter((r) => r.enabled === 1).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled rules before removing them', ids: enabled } });
  await deps.db.deleteFrom('site_firewall_rules').where('id', 'in', ids).execute();
}
