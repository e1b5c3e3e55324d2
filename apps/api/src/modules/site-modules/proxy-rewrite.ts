import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { reachModules } from './core';

const KIND = 'proxyRewrite' as const;
const MAX_RULES = 500;

export async function listRules(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  return repo.items(await repo.module(KIND, o.moduleId)).list('proxyRewrite');
}

export async function saveRule(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; rule: edge.RewriteRule & { id?: number } }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(KIND, o.moduleId));
  const { id, ...rule } = o.rule;
  const existing = await items.list('proxyRewrite');
  if (!id && existing.length >= MAX_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_RULES } });
  if (existing.some((r) => r.id !== id && r.match === rule.match && r.source === rule.source)) {
    throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'source', message: 'Data already exists!' }] } });
  }
  const saved = await items.put(id, rule);
  await sitesChanged(deps, [site]);
  return { id: saved, ...rule };
}
