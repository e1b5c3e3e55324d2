import { Codes, edge, REDIRECT_RULE_MAX, type PageQuery } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { reachModules } from './core';

const KIND = 'urlRedirect' as const;

export async function listUrls(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; query: PageQuery & { keyword?: string } }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  const all = await repo.items(await repo.module(KIND, o.moduleId)).list('urlRedirect');
  const k = o.query.keyword?.toLowerCase();
  const hits = k ? all.filter((r) => r.source.toLowerCase().includes(k) || r.target.toLowerCase().includes(k)) : all;
  const start = (o.query.page - 1) * o.query.pageSize;
  return { data: hits.slice(start, start + o.query.pageSize), total: hits.length };
}

/** Spec §9: at most 3000 redirect rules a module (205007). */
export async function saveUrl(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; rule: edge.RedirectRule & { id?: number } }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(KIND, o.moduleId));
  const { id, ...rule } = o.rule;
  if (!id && (await items.count()) >= REDIRECT_RULE_MAX) throw new ApiError(Codes.RedirectRuleLimit, { extra: { limit: REDIRECT_RULE_MAX } });
  const existing = await items.list('urlRedirect');
  if (existing.some((r) => r.id !== id && r.match === rule.match && r.source === rule.source)) {
    throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'source', message: 'Data already exists!' }] } });
  }
  const saved = await items.put(id, rule);
  await sitesChanged(deps, [site]);
  return { id: saved, ...rule };
}

/**
 * Replaces a text in every target of one module in one call (a moved origin, http to https). Each target it makes is
 * checked as a single rule's would be; if one fails, nothing changes (101003 names the rules). Applied like the rest.
 */
export async function replaceUrl(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; from: string; to: string }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(KIND, o.moduleId));
  const rules = await items.list('urlRedirect');
  const changed = rules.filter((r) => r.target.includes(o.from)).map(({ id, ...r }) => ({ id, rule: { ...r, target: r.target.split(o.from).join(o.to) } }));
  const bad = changed.filter((c) => !edge.redirectRule.safeParse(c.rule).success);
  if (bad.length) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'to', message: 'Wrong Fromat!' }], ids: bad.map((b) => b.id) } });
  if (changed.length) {
    await items.replace(changed.map((c) => ({ id: c.id, item: c.rule })));
    await sitesChanged(deps, [site]);
  }
  return { replaced: changed.length };
}
