import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { itemsOf, moduleOf, putItem, siteOf } from './core';

const KIND = 'proxyRewrite' as const;
const MAX_RULES = 500;

export async function listRules(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  return itemsOf(deps, o.moduleId, 'proxyRewrite');
}

export async function saveRule(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; rule: edge.RewriteRule & { id?: number } }) {
  const site = await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  const { id, ...rule } = o.rule;
  const existing = await itemsOf(deps, o.moduleId, 'proxyRewrite');
  if (!id && existing.length >= MAX_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_RULES } });
  if (existing.some((r) => r.id !== id && r.match === rule.match && r.source === rule.source)) {
    throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'source', message: 'Data already exists!' }] } });
  }
  const saved = await putItem(deps, { moduleId: o.moduleId, id, item: rule });
  await sitesChanged(deps, [site]);
  return { id: saved, ...rule };
}
