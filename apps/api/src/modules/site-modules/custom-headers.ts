import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { itemsOf, moduleOf, ownDomains, putItem, siteOf } from './core';

const KIND = 'customHeader' as const;

export async function listHeaders(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  return itemsOf(deps, o.moduleId, 'customHeader');
}

/** One header name once per side (request or response), compared without case as HTTP does. */
export async function saveHeader(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; header: edge.CustomHeader & { id?: number } }) {
  const site = await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  const { id, ...header } = o.header;
  const existing = await itemsOf(deps, o.moduleId, 'customHeader');
  const clash = existing.find((h) => h.id !== id && h.type === header.type && h.name.toLowerCase() === header.name.toLowerCase());
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const saved = await putItem(deps, { moduleId: o.moduleId, id, item: header });
  await sitesChanged(deps, [site]);
  return { id: saved, ...header };
}

export async function domainHeaders(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number }) {
  await siteOf(deps, principal, o.siteId);
  await ownDomains(deps, o.siteId, [o.domainId]);
  const link = await deps.db
    .selectFrom('domain_modules')
    .innerJoin('site_modules', 'site_modules.id', 'domain_modules.module_id')
    .select(['site_modules.id', 'site_modules.name'])
    .where('domain_modules.domain_id', '=', o.domainId)
    .where('domain_modules.kind', '=', KIND)
    .executeTakeFirst();
  if (!link) return { module: null, headers: [] };
  return { module: link, headers: await itemsOf(deps, link.id, 'customHeader') };
}
