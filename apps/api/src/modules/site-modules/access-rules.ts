import type { edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { reachModules } from './core';

/** A domain's own rules: referer allow/deny lists and header rules, each refused with 403 at the edge. */
type Kind = 'referer' | 'header';
type Rule<K extends Kind> = K extends 'referer' ? edge.RefererRule : edge.HeaderRule;

/** The caller's site with the rules of one of its domains. */
async function rulesOf<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: K }) {
  const { site, repo, domains } = await reachModules(deps, principal, o.siteId);
  return { site, rules: repo.accessRules(await domains.get(o.domainId), o.kind) };
}

export async function listRules<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: K }) {
  const { rules } = await rulesOf(deps, principal, o);
  return (await rules.list()).map((r) => ({ id: r.id, ...(r.rule as Rule<K>), memo: r.memo }));
}

export async function addRule<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: K; rule: Rule<K> & { memo: string } }) {
  const { site, rules } = await rulesOf(deps, principal, o);
  const { memo, ...rule } = o.rule;
  const id = await rules.add(rule, memo);
  await sitesChanged(deps, [site]);
  return { id, ...rule, memo };
}

export async function updateRule<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; kind: K; rule: Rule<K> & { id: number; domainId: number; memo: string } }) {
  const { id, domainId, memo, ...rule } = o.rule;
  const { site, rules } = await rulesOf(deps, principal, { siteId: o.siteId, domainId, kind: o.kind });
  if (!(await rules.update(id, rule, memo))) throw notFound('rule');
  await sitesChanged(deps, [site]);
  return { id, ...rule, memo };
}

export async function removeRules(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: Kind; ids: number[] }) {
  const { site, rules } = await rulesOf(deps, principal, o);
  if ((await rules.owned(o.ids)) !== new Set(o.ids).size) throw notFound('rule');
  await rules.remove(o.ids);
  await sitesChanged(deps, [site]);
}
