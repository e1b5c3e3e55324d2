import { Codes, ITEM_LIST_MAX, firewallRuleSchemas as s, type PageQuery } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { firewallRepo } from './repo';
import { readRuleBody, type Fields } from './stored';

type Kind = s.RuleKind;
export type CreateFields = Fields & { enabled: boolean };
export type UpdateFields = Fields & { id: number; enabled?: boolean };
type Row = { id: number; kind: string; body: string; priority: number; enabled: number; created_at: string };
export type RulesQuery = PageQuery & { enabled?: boolean; isBlack?: boolean; names?: string };

const toItem = (r: Row): Fields & { id: number; enabled: boolean; createdAt: string } => ({ ...readRuleBody(r.kind as Kind, r.body), id: r.id, enabled: r.enabled === 1, createdAt: r.created_at });
/** The fields the rule is made of, in a fixed order, so two equal rules have equal bodies. */
const bodyOf = (kind: Kind, fields: Fields) => {
  const shape = s.RULE_KINDS[kind].fields.shape as Record<string, unknown>;
  return JSON.stringify(Object.fromEntries(Object.keys(shape).map((k) => [k, fields[k]])));
};

const rulesOf = async (deps: AppDeps, principal: Principal, siteId: number, kind: Kind) => {
  const site = await sitesRepo(deps, principal).get(siteId);
  return { site, rules: firewallRepo(deps.db, site).rules(kind) };
};
type Rules = Awaited<ReturnType<typeof rulesOf>>['rules'];

const compare = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? '')));

/** Lists are at most 5000 rules: filtered, sorted and paged in memory over the parsed bodies. */
export async function listRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, query: RulesQuery) {
  const { rules } = await rulesOf(deps, principal, siteId, kind);
  const sortable = ['createdAt', 'enabled', ...Object.keys(s.RULE_KINDS[kind].fields.shape)];
  if (query.sortBy !== undefined && !sortable.includes(query.sortBy)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${sortable.join(', ')}` }] } });
  }
  const names = query.names?.split(',').map((n) => n.trim().toUpperCase()).filter(Boolean) ?? [];
  let items = (await rules.all()).map(toItem);
  if (query.enabled !== undefined) items = items.filter((i) => i.enabled === query.enabled);
  if (query.isBlack !== undefined) items = items.filter((i) => i.isBlack === query.isBlack);
  if (names.length) items = items.filter((i) => (i.geoIDs as string[] | undefined)?.some((g) => names.includes(g)));
  const sortBy = query.sortBy ?? (kind === 'limitReq' ? 'priority' : 'createdAt');
  const desc = query.orderBy === undefined ? sortBy === 'createdAt' : query.orderBy.startsWith('desc');
  items.sort((a, b) => (desc ? -1 : 1) * (compare(a[sortBy], b[sortBy]) || a.id - b.id));
  const start = (query.page - 1) * query.pageSize;
  return { data: items.slice(start, start + query.pageSize), total: items.length };
}

async function assertUnique(rules: Rules, body: string, except?: number) {
  const clash = (await rules.all()).find((r) => r.body === body && r.id !== except);
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { id: clash.id } });
}

export async function createRule(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, fields: CreateFields) {
  const { site, rules } = await rulesOf(deps, principal, siteId, kind);
  if ((await rules.all()).length >= ITEM_LIST_MAX) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: ITEM_LIST_MAX } });
  const body = bodyOf(kind, fields);
  await assertUnique(rules, body);
  const row = await rules.insert({ body, priority: Number(fields.priority ?? 0), enabled: fields.enabled ? 1 : 0 });
  await sitesChanged(deps, [site]);
  return toItem(row);
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, fields: UpdateFields) {
  const { site, rules } = await rulesOf(deps, principal, siteId, kind);
  await rules.get(fields.id);
  const body = bodyOf(kind, fields);
  await assertUnique(rules, body, fields.id);
  await rules.update(fields.id, { body, priority: Number(fields.priority ?? 0), ...(fields.enabled === undefined ? {} : { enabled: fields.enabled ? 1 : 0 }) });
  await sitesChanged(deps, [site]);
  return toItem(await rules.get(fields.id));
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, ids: number[], enabled: boolean) {
  const { site, rules } = await rulesOf(deps, principal, siteId, kind);
  await rules.owned(ids);
  await rules.setEnabled(ids, enabled);
  await sitesChanged(deps, [site]);
}

/** Spec §4: a rule in use (enabled) must be closed before removal. */
export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, kind: Kind, ids: number[]) {
  const { rules } = await rulesOf(deps, principal, siteId, kind);
  const enabled = (await rules.owned(ids)).filter((r) => r.enabled === 1).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled rules before removing them', ids: enabled } });
  await rules.remove(ids);
}
