import type { edge } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { ownDomains, siteOf } from './core';
import { readAccessRule } from './stored';

/** A domain's own rules: referer allow/deny lists and header rules, each refused with 403 at the edge. */
type Kind = 'referer' | 'header';
type Rule<K extends Kind> = K extends 'referer' ? edge.RefererRule : edge.HeaderRule;

export async function listRules<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: K }) {
  await siteOf(deps, principal, o.siteId);
  await ownDomains(deps, o.siteId, [o.domainId]);
  const rows = await deps.db.selectFrom('domain_access_rules').select(['id', 'rule', 'memo']).where('domain_id', '=', o.domainId).where('kind', '=', o.kind).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, ...(readAccessRule(o.kind, r.rule) as Rule<K>), memo: r.memo }));
}

export async function addRule<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: K; rule: Rule<K> & { memo: string } }) {
  const site = await siteOf(deps, principal, o.siteId);
  await ownDomains(deps, o.siteId, [o.domainId]);
  const { memo, ...rule } = o.rule;
  const row = await deps.db
    .insertInto('domain_access_rules')
    .values({ domain_id: o.domainId, kind: o.kind, rule: JSON.stringify(rule), memo, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sitesChanged(deps, [site]);
  return { id: row.id, ...rule, memo };
}

export async function updateRule<K extends Kind>(deps: AppDeps, principal: Principal, o: { siteId: number; kind: K; rule: Rule<K> & { id: number; domainId: number; memo: string } }) {
  const site = await siteOf(deps, principal, o.siteId);
  const { id, domainId, memo, ...rule } = o.rule;
  await ownDomains(deps, o.siteId, [domainId]);
  const r = await deps.db
    .updateTable('domain_access_rules')
    .set({ rule: JSON.stringify(rule), memo })
    .where('id', '=', id)
    .where('domain_id', '=', domainId)
    .where('kind', '=', o.kind)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw notFound('rule');
  await sitesChanged(deps, [site]);
  return { id, ...rule, memo };
}

export async function removeRules(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number; kind: Kind; ids: number[] }) {
  const site = await siteOf(deps, principal, o.siteId);
  await ownDomains(deps, o.siteId, [o.domainId]);
  const owned = await deps.db.selectFrom('domain_access_rules').select('id').where('domain_id', '=', o.domainId).where('kind', '=', o.kind).where('id', 'in', o.ids).execute();
  if (owned.length !== new Set(o.ids).size) throw notFound('rule');
  await deps.db.deleteFrom('domain_access_rules').where('id', 'in', o.ids).execute();
  await sitesChanged(deps, [site]);
}
