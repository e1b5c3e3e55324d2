import { Codes, edge, type wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { reachSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { domainsRepo } from '../domains/repo';
import { wafAclRepo, type RuleInput } from './repo';

type WafAcl = ReturnType<typeof wafAclRepo>;

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

export async function listModules(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof wafAclSchemas.modulesQuery>) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  return repo.page(query);
}

async function assertNameFree(repo: WafAcl, names: string[], except?: number) {
  if (new Set(names).size !== names.length) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const clash = await repo.nameTaken(names, except);
  if (clash !== undefined) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }], name: clash } });
}

export async function createModules(deps: AppDeps, principal: Principal, siteId: number, modules: { name: string; memo: string }[]) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  await assertNameFree(repo, modules.map((m) => m.name));
  return repo.insert(modules);
}

export async function updateModule(deps: AppDeps, principal: Principal, siteId: number, body: { id: number; name: string; memo?: string }) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  await repo.module(body.id);
  await assertNameFree(repo, [body.name], body.id);
  await repo.update(body.id, { name: body.name, ...(body.memo === undefined ? {} : { memo: body.memo }) });
  return repo.item(body.id);
}

/** Spec §4: an item in use must be taken out of use first; a module is in use while domains carry it. */
export async function removeModules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  if ((await repo.owned(ids)) !== new Set(ids).size) throw notFound('module');
  const used = await repo.inUse(ids);
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'take the module off its domains before removing it', ids: used } });
  await repo.remove(ids);
}

export async function listRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, query: z.infer<typeof wafAclSchemas.rulesQuery>) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  return repo.rules(await repo.module(moduleId)).page(query);
}

export async function createRule(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, body: RuleInput) {
  const { site, repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  const rules = repo.rules(await repo.module(moduleId));
  checkRule(body);
  const rule = await rules.insert(body);
  await sitesChanged(deps, [site]);
  return rule;
}

export async function updateRule(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, body: Partial<RuleInput> & { id: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  const rules = repo.rules(await repo.module(moduleId));
  const current = await rules.get(body.id);
  const { id, ...changes } = body;
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as RuleInput;
  checkRule(next);
  await rules.update(id, next);
  await sitesChanged(deps, [site]);
  return rules.get(id);
}

export async function enableRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, ids: number[], enabled: boolean) {
  const { site, repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  const rules = repo.rules(await repo.module(moduleId));
  await rules.owned(ids);
  await rules.setEnabled(ids, enabled);
  await sitesChanged(deps, [site]);
}

export async function removeRules(deps: AppDeps, principal: Principal, siteId: number, moduleId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  const rules = repo.rules(await repo.module(moduleId));
  await rules.owned(ids);
  await rules.remove(ids);
  await sitesChanged(deps, [site]);
}

/** Puts the module on the site's domains, replacing what they carried; moduleID 0 takes modules off. */
export async function assignModule(deps: AppDeps, principal: Principal, siteId: number, body: { domainIDs: number[]; moduleID: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  if (body.moduleID) await repo.module(body.moduleID);
  const domains = await domainsRepo(deps.db, site).some(body.domainIDs);
  await repo.assign(domains, body.moduleID || undefined);
  await sitesChanged(deps, [site]);
}

export async function advancedExists(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachSite(deps, principal, siteId, wafAclRepo);
  const { modules, rules } = await repo.counts();
  return { exists: rules > 0, modules, rules };
}
