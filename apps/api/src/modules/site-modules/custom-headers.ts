import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { reachModules } from './core';

const KIND = 'customHeader' as const;

export async function listHeaders(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  return repo.items(await repo.module(KIND, o.moduleId)).list('customHeader');
}

/** One header name once per side (request or response), compared without case as HTTP does. */
export async function saveHeader(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; header: edge.CustomHeader & { id?: number } }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(KIND, o.moduleId));
  const { id, ...header } = o.header;
  const existing = await items.list('customHeader');
  const clash = existing.find((h) => h.id !== id && h.type === header.type && h.name.toLowerCase() === header.name.toLowerCase());
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const saved = await items.put(id, header);
  await sitesChanged(deps, [site]);
  return { id: saved, ...header };
}

export async function domainHeaders(deps: AppDeps, principal: Principal, o: { siteId: number; domainId: number }) {
  const { repo, domains } = await reachModules(deps, principal, o.siteId);
  const link = await repo.assignedTo(await domains.get(o.domainId), KIND);
  if (!link) return { module: null, headers: [] };
  return { module: link, headers: await repo.items(link).list('customHeader') };
}
