import { Codes, edge, type wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readConditions } from './stored';

type RuleInput = z.infer<typeof wafAclSchemas.ruleInput>;
type RuleRow = {
  id: number; module_id: number; name: string; priority: number; enabled: number; logic: 'and' | 'or'; conditions: string;
  action: string; redirect_url: string; block_seconds: number; created_at: string;
};

const toRule = (r: RuleRow) => ({
  id: r.id,
  moduleID: r.module_id,
  name: r.name,
  priority: r.priority,
  enabled: r.enabled === 1,
  logic: r.logic,
  conditions: readConditions(r.conditions),
  action: r.action as RuleInput['action'],
  redirectURL: r.redirect_url,
  blockSeconds: r.block_seconds,
  createdAt: r.created_at,
});

const parameter = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(Codes.Parameter, { extra: { ...extra, fields: [{ in: 'body', field, message }] } });

/** Refuses a rule the edge could not run as written: each condition must fit its field, a redirect needs its URL. */
function checkRule(rule: RuleInput) {
  rule.conditions.forEach((c, i) => {
    const problem = edge.conditionProblem(c);
    if (problem) throw parameter(`conditions.${i}`, `condition ${i + 1} (${c.field} ${c.operator}): ${problem}`, { condition: i + 1 });
  });
  const redirect = rule.action === 'redirect301' || rule.action === 'redirect302';
  if (redirect && (!rule.redirectURL || !edge.aclRule.shape.redirectURL.safeParse(rule.redirectURL).success)) throw parameter('redirectURL', 'a redirect needs an http:// or https:// URL');
}

async function modulesWithDetails(deps: AppDeps, rows: { id: number; name: string; memo: string; created_at: string }[]) {
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await deps.db.selectFrom('waf_acl_rules').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', ids).groupBy('module_id').execute()
    : [];
  const domains = ids.length
    ? await deps.db.selectFrom('waf_acl_domains').innerJoin('domains', 'domains.id', 'waf_acl_domains.domain_id')
      .select(['waf_acl_domains.module_id', 'domains.id', 'domains.name']).where('waf_acl_domains.module_id', 'in', ids).orderBy('domains.name').execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    memo: r.memo,
    ruleCount: toCount(counts.find((c) => c.module_id === r.id)?.n as number | undefined),
    domains: domains.filter((d) => d.module_id === r.id).map((d) => ({ id: d.id, name: d.name })),
    createdAt: r.created_at,
  }));
}

export async function listModules(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof wafAclSchemas.modulesQuery>) {
  await sitesRepo(deps, principal).get(siteId);
  let q = deps.db.selectFrom('waf_acl_modules').selectAll().where('site_id', '=', siteId);
  if (query.name) q = q.where('name', 'like', `%${query.name}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
  return { data: await modulesWithDetails(deps, page.data), total: page.total };
}

async function moduleOf(deps: AppDeps, siteId: number, id: number) {
  const row = await deps.db.selectFrom('waf_acl_modules').selectAll().where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  if (!row) throw notFound('module');
  return row;
}

async function assertNameFree(deps: AppDeps, siteId: number, names: string[], except?: number) {
  if (new Set(names).size !== names.length) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  let q = deps.db.selectFrom('waf_acl_modules').select('name').where('site_id', '=', siteId).where('name', 'in', names);
  if (except) q = q.where('id', '!=', except);
  const clash = await q.executeTakeFirst();
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }], name: clash.name } });
}

export async function createModules(deps: AppDeps, principal: Principal, siteId: number, modules: { name: string; memo: string }[]) {
  await sitesRepo(deps, principal).get(siteId);
  await assertNameFree(deps, siteId, modules.map((m) => m.name));
  const at = now();
  const rows = await deps.db.insertInto('waf_acl_modules').values(modules.map((m) => ({ site_id: siteId, name: m.name, memo: m.memo, created_at: at }))).returningAll().execute();
  return modulesWithDetails(deps, rows);
}

export async function updateModule(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; name: string; memo?: string }) {
  await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, body.id);
  await assertNameFree(deps, siteId, [body.name], body.id);
  await deps.db.updateTable('waf_acl_modules').set({ name: body.name, ...(body.memo === undefined ? {} : { memo: body.memo }) }).where('id', '=', body.id).execute();
  return (await modulesWithDetails(deps, [await moduleOf(deps, siteId, body.id)]))[0];
}

/** Spec §4: an item in use must be taken out of use first; a module is in use while domains carry it. */
export async function removeModules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  await sitesRepo(deps, principal).get(siteId);
  const rows = await deps.db.selectFrom('waf_acl_modules').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('module');
  const used = await deps.db.selectFrom('waf_acl_domains').select('module_id').where('module_id', 'in', ids).execute();
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'take the module off its domains before removing it', ids: [...new Set(used.map((u) => u.module_id))] } });
  await deps.db.deleteFrom('waf_acl_rules').where('module_id', 'in', ids).execute();
  await deps.db.deleteFrom('waf_acl_modules').where('id', 'in', ids).execute();
}

export async function listRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, query: z.infer<typeof wafAclSchemas.rulesQuery>) {
  await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, moduleId);
  let q = deps.db.selectFrom('waf_acl_rules').selectAll().where('module_id', '=', moduleId);
  if (query.name) q = q.where('name', 'like', `%${query.name}%`);
  const page = await paginate(q, { page: query, sortable: { priority: 'priority', name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'priority', order: 'asc' } });
  return { data: page.data.map(toRule), total: page.total };
}

const ruleColumns = (r: RuleInput) => ({
  name: r.name,
  priority: r.priority,
  enabled: (r.enabled ? 1 : 0) as 0 | 1,
  logic: r.logic,
  conditions: JSON.stringify(r.conditions),
  action: r.action,
  redirect_url: r.action.startsWith('redirect') ? r.redirectURL : '',
  block_seconds: r.blockSeconds,
});

export async function createRule(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, body: RuleInput) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, moduleId);
  checkRule(body);
  const row = await deps.db.insertInto('waf_acl_rules').values({ module_id: moduleId, ...ruleColumns(body), created_at: now() }).returningAll().executeTakeFirstOrThrow();
  await sitesChanged(deps, [site]);
  return toRule(row);
}

async function ruleOf(deps: AppDeps, moduleId: number, id: number) {
  const row = await deps.db.selectFrom('waf_acl_rules').selectAll().where('id', '=', id).where('module_id', '=', moduleId).executeTakeFirst();
  if (!row) throw notFound('rule');
  return row;
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, body: Partial<RuleInput> & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, moduleId);
  const current = toRule(await ruleOf(deps, moduleId, body.id));
  const { id, ...changes } = body;
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as RuleInput;
  checkRule(next);
  await deps.db.updateTable('waf_acl_rules').set(ruleColumns(next)).where('id', '=', id).execute();
  await sitesChanged(deps, [site]);
  return toRule(await ruleOf(deps, moduleId, id));
}

async function ownedRules(deps: AppDeps, moduleId: number, ids: number[]) {
  const rows = await deps.db.selectFrom('waf_acl_rules').select('id').where('module_id', '=', moduleId).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('rule');
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, ids: number[], enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, moduleId);
  await ownedRules(deps, moduleId, ids);
  await deps.db.updateTable('waf_acl_rules').set({ enabled: enabled ? 1 : 0 }).where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await moduleOf(deps, siteId, moduleId);
  await ownedRules(deps, moduleId, ids);
  await deps.db.deleteFrom('waf_acl_rules').where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

/** Puts the module on the site's domains, replacing what they carried; moduleID 0 takes modules off. */
export async function assignModule(deps: AppDeps, principal: Principal, siteId: number, body: { domainIDs: number[]; moduleID: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  if (body.moduleID) await moduleOf(deps, siteId, body.moduleID);
  const ids = [...new Set(body.domainIDs)];
  const owned = await deps.db.selectFrom('domains').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (owned.length !== ids.length) throw notFound('domain');
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('waf_acl_domains').where('domain_id', 'in', ids).execute();
    if (body.moduleID) await trx.insertInto('waf_acl_domains').values(ids.map((domain_id) => ({ domain_id, module_id: body.moduleID }))).execute();
  });
  await sitesChanged(deps, [site]);
}

export async function advancedExists(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const modules = await deps.db.selectFrom('waf_acl_modules').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).executeTakeFirst();
  const rules = await deps.db.selectFrom('waf_acl_rules').innerJoin('waf_acl_modules', 'waf_acl_modules.id', 'waf_acl_rules.module_id')
    .select((eb) => eb.fn.countAll().as('n')).where('waf_acl_modules.site_id', '=', siteId).executeTakeFirst();
  const r = toCount(rules?.n as number | undefined);
  return { exists: r > 0, modules: toCount(modules?.n as number | undefined), rules: r };
}
