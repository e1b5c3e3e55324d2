import { Codes, type PageQuery, type siteModuleSchemas } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readItem, type ItemKind } from './stored';

export type Kind = siteModuleSchemas.ModuleKind;
type ModuleRow = { id: number; site_id: number; kind: string; name: string; config: string; created_at: string; updated_at: string };

/** The site, when the caller may reach it; every module call starts here. */
export const siteOf = (deps: AppDeps, principal: Principal, siteId: number) => sitesRepo(deps, principal).get(siteId);

export async function moduleOf(deps: AppDeps, siteId: number, kind: Kind, id: number) {
  const row = await deps.db.selectFrom('site_modules').selectAll().where('id', '=', id).where('site_id', '=', siteId).where('kind', '=', kind).executeTakeFirst();
  if (!row) throw notFound('module');
  return row;
}

/** The domains each module is assigned to. */
export async function domainsOf(deps: AppDeps, moduleIds: number[]) {
  if (!moduleIds.length) return new Map<number, { id: number; name: string }[]>();
  const rows = await deps.db
    .selectFrom('domain_modules')
    .innerJoin('domains', 'domains.id', 'domain_modules.domain_id')
    .select(['domain_modules.module_id', 'domains.id', 'domains.name'])
    .where('domain_modules.module_id', 'in', moduleIds)
    .orderBy('domains.name')
    .execute();
  const map = new Map<number, { id: number; name: string }[]>();
  for (const r of rows) map.set(r.module_id, [...(map.get(r.module_id) ?? []), { id: r.id, name: r.name }]);
  return map;
}

async function toItems(deps: AppDeps, rows: ModuleRow[]) {
  const ids = rows.map((r) => r.id);
  const domains = await domainsOf(deps, ids);
  const counts = ids.length
    ? await deps.db.selectFrom('site_module_items').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', ids).groupBy('module_id').execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    count: toCount(counts.find((c) => c.module_id === r.id)?.n as number),
    domains: domains.get(r.id) ?? [],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export async function listModules(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; query: PageQuery & { name?: string } }) {
  await siteOf(deps, principal, o.siteId);
  let q = deps.db.selectFrom('site_modules').selectAll().where('site_id', '=', o.siteId).where('kind', '=', o.kind);
  if (o.query.name) q = q.where('name', 'like', `%${o.query.name}%`);
  const page = await paginate(q, { page: o.query, sortable: { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

export async function moduleItem(deps: AppDeps, row: ModuleRow) {
  return (await toItems(deps, [row]))[0];
}

/** Names are unique among a site's modules of one kind. */
async function assertNameFree(deps: AppDeps, o: { siteId: number; kind: Kind; name: string; except?: number }) {
  let q = deps.db.selectFrom('site_modules').select('id').where('site_id', '=', o.siteId).where('kind', '=', o.kind).where('name', '=', o.name);
  if (o.except) q = q.where('id', '!=', o.except);
  if (await q.executeTakeFirst()) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
}

export async function saveModule(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; id?: number; name: string; config?: object }) {
  const site = await siteOf(deps, principal, o.siteId);
  if (o.id) await moduleOf(deps, o.siteId, o.kind, o.id);
  await assertNameFree(deps, { ...o, except: o.id });
  const at = now();
  const config = o.config === undefined ? {} : { config: JSON.stringify(o.config) };
  const id = o.id
    ? (await deps.db.updateTable('site_modules').set({ name: o.name, ...config, updated_at: at }).where('id', '=', o.id).returning('id').executeTakeFirstOrThrow()).id
    : (await deps.db.insertInto('site_modules').values({ site_id: o.siteId, kind: o.kind, name: o.name, config: config.config ?? '{}', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  if (o.id) await sitesChanged(deps, [site]);
  return moduleOf(deps, o.siteId, o.kind, id);
}

/** Spec §4: an item in use must be released before removal; modules assigned to domains are refused. */
export async function removeModules(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; ids: number[] }) {
  await siteOf(deps, principal, o.siteId);
  const owned = await deps.db.selectFrom('site_modules').select('id').where('site_id', '=', o.siteId).where('kind', '=', o.kind).where('id', 'in', o.ids).execute();
  if (owned.length !== new Set(o.ids).size) throw notFound('module');
  const used = await domainsOf(deps, o.ids);
  if (used.size) throw new ApiError(Codes.Parameter, { extra: { reason: 'unassign the module from its domains first', ids: [...used.keys()] } });
  await deps.db.deleteFrom('site_modules').where('id', 'in', o.ids).execute();
}

/** The site's domains among ids; any other id answers as missing. */
export async function ownDomains(deps: AppDeps, siteId: number, ids: number[]) {
  const rows = await deps.db.selectFrom('domains').select(['id', 'name']).where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('domain');
  return rows;
}

/** Points domains at a module of a kind; module 0 (the None option) unassigns. */
export async function assignModule(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; domainIds: number[]; moduleId: number }) {
  const site = await siteOf(deps, principal, o.siteId);
  await ownDomains(deps, o.siteId, o.domainIds);
  if (o.moduleId) await moduleOf(deps, o.siteId, o.kind, o.moduleId);
  await deps.db.deleteFrom('domain_modules').where('kind', '=', o.kind).where('domain_id', 'in', o.domainIds).execute();
  if (o.moduleId) {
    await deps.db.insertInto('domain_modules').values(o.domainIds.map((d) => ({ domain_id: d, kind: o.kind, module_id: o.moduleId }))).execute();
  }
  await sitesChanged(deps, [site]);
}

export async function moduleExists(deps: AppDeps, principal: Principal, siteId: number) {
  await siteOf(deps, principal, siteId);
  const rows = await deps.db.selectFrom('site_modules').select('kind').distinct().where('site_id', '=', siteId).execute();
  const has = (k: Kind) => rows.some((r) => r.kind === k);
  return { customHeader: has('customHeader'), urlRedirect: has('urlRedirect'), cors: has('cors'), proxyRewrite: has('proxyRewrite'), tokenAuth: has('tokenAuth'), waf: has('waf') };
}

/** Items of a module in insertion order, read as their kind's schema. */
export async function itemsOf<K extends ItemKind>(deps: AppDeps, moduleId: number, kind: K) {
  const rows = await deps.db.selectFrom('site_module_items').select(['id', 'item']).where('module_id', '=', moduleId).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, ...readItem(kind, r.item) }));
}

export async function removeItems(deps: AppDeps, principal: Principal, o: { siteId: number; kind: Kind; moduleId: number; ids: number[] }) {
  const site = await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, o.kind, o.moduleId);
  const owned = await deps.db.selectFrom('site_module_items').select('id').where('module_id', '=', o.moduleId).where('id', 'in', o.ids).execute();
  if (owned.length !== new Set(o.ids).size) throw notFound('item');
  await deps.db.deleteFrom('site_module_items').where('id', 'in', o.ids).execute();
  await deps.db.updateTable('site_modules').set({ updated_at: now() }).where('id', '=', o.moduleId).execute();
  await sitesChanged(deps, [site]);
}

/** Adds (no id) or replaces one item of a module. */
export async function putItem(deps: AppDeps, o: { moduleId: number; id?: number; item: object }) {
  const item = JSON.stringify(o.item);
  const at = now();
  if (o.id) {
    const r = await deps.db.updateTable('site_module_items').set({ item }).where('id', '=', o.id).where('module_id', '=', o.moduleId).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw notFound('item');
  }
  const id = o.id ?? (await deps.db.insertInto('site_module_items').values({ module_id: o.moduleId, item, created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  await deps.db.updateTable('site_modules').set({ updated_at: at }).where('id', '=', o.moduleId).execute();
  return id;
}
