import { Codes, type PageQuery } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { domainsRepo } from '../domains/repo';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { siteModulesRepo, type Kind, type ModuleRow } from './repo';

/** The site, when the caller may reach it, with the repositories of its modules and domains; every module call starts here. */
export async function reachModules(deps: AppDeps, principal: Principal, siteId: number) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return { site, repo: siteModulesRepo(deps.db, site), domains: domainsRepo(deps.db, site) };
}
type Reached = Awaited<ReturnType<typeof reachModules>>;

async function toItems(repo: Reached['repo'], rows: ModuleRow[]) {
  const ids = rows.map((r) => r.id);
  const domains = await repo.assignedDomains(ids);
  const counts = await repo.itemCounts(ids);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    count: counts.find((c) => c.moduleId === r.id)?.n ?? 0,
    domains: domains.get(r.id) ?? [],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export async function listModules(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; query: PageQuery & { name?: string } }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  const page = await repo.page(o.kind, o.query, { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' });
  return { data: await toItems(repo, page.data), total: page.total };
}

/**
 * Adds (no id) or renames a module, with its config when given; names are unique among a site's modules of one
 * kind. Answers the module's row.
 */
export async function saveModule(deps: AppDeps, { repo, site }: Reached, o: { kind: Kind; id?: number; name: string; config?: object }) {
  if (o.id) await repo.module(o.kind, o.id);
  if (await repo.nameTaken(o.kind, o.name, o.id)) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const id = await repo.save(o.kind, o.id, o.name, o.config);
  if (o.id) await sitesChanged(deps, [site]);
  return repo.module(o.kind, id);
}

/** A module with only a name, as the console lists it. */
export async function saveNamedModule(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; id?: number; name: string }) {
  const reached = await reachModules(deps, principal, o.siteId);
  return (await toItems(reached.repo, [await saveModule(deps, reached, o)]))[0];
}

/** Spec §4: an item in use must be released before removal; modules assigned to domains are refused. */
export async function removeModules(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; ids: number[] }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  if ((await repo.owned(o.kind, o.ids)) !== new Set(o.ids).size) throw notFound('module');
  const used = await repo.assignedDomains(o.ids);
  if (used.size) throw new ApiError(Codes.Parameter, { extra: { reason: 'unassign the module from its domains first', ids: [...used.keys()] } });
  await repo.remove(o.kind, o.ids);
}

/** Points domains at a module of a kind; module 0 (the None option) unassigns. */
export async function assignModule(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; domainIds: number[]; moduleId: number }) {
  const { site, repo, domains } = await reachModules(deps, principal, o.siteId);
  const rows = await domains.some(o.domainIds);
  if (o.moduleId) await repo.module(o.kind, o.moduleId);
  await repo.assign(o.kind, rows, o.moduleId || undefined);
  await sitesChanged(deps, [site]);
}

export async function moduleExists(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachModules(deps, principal, siteId);
  const kinds = await repo.kinds();
  const has = (k: Kind) => kinds.includes(k);
  return { customHeader: has('customHeader'), urlRedirect: has('urlRedirect'), cors: has('cors'), proxyRewrite: has('proxyRewrite'), tokenAuth: has('tokenAuth'), waf: has('waf') };
}

export async function removeItems(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; moduleId: number; ids: number[] }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(o.kind, o.moduleId));
  if ((await items.owned(o.ids)) !== new Set(o.ids).size) throw notFound('item');
  await items.remove(o.ids);
  await sitesChanged(deps, [site]);
}
