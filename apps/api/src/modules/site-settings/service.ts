import { Codes, edge } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { queueForZone } from './node-queue';
import { changeOptions, loadOptions, sitePortView } from './options';
import { rateRules } from './rates';
import { assertOwnUrls, domainNames } from './site-urls';
import { readJson } from '../../db/json-column';

/** Spec: a site holds up to 100 cache rules (the edge's limit). */
const MAX_CACHE_RULES = 100;

export async function siteSettings(deps: AppDeps, siteId: number) {
  const rules = await deps.db.selectFrom('site_cache_rules').select(['id', 'rule']).where('site_id', '=', siteId).orderBy('id').execute();
  const site = await deps.db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.gzip', 'products.zone_id'])
    .where('sites.id', '=', siteId)
    .executeTakeFirstOrThrow();
  const options = await loadOptions(deps.db, siteId);
  const ports = await sitePortView(deps.db, siteId, site.zone_id);
  const https = await deps.db
    .selectFrom('domains')
    .select('id')
    .where('site_id', '=', siteId)
    .where('status', '=', 1)
    .where('certificate_id', 'is not', null)
    .executeTakeFirst();
  const on = (list: { port: number; enabled: boolean }[]) => list.filter((p) => p.enabled).map((p) => p.port);
  return {
    cacheRules: rules.map((r) => ({ id: r.id, ...readJson('site_cache_rules.rule', edge.cacheRule, r.rule) })),
    gzip: site.gzip === 1,
    webp: options.webp,
    cache: { ...options.cache, defaultDirectory: edge.defaultCacheDirectory(siteId) },
    rates: await rateRules(deps, siteId),
    hsts: options.hsts,
    clientMaxBodySize: options.clientMaxBodySize,
    httpPorts: on(ports.httpPorts),
    httpsPorts: on(ports.httpsPorts),
    httpsEnabled: https !== undefined,
  };
}

export async function readSettings(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  return siteSettings(deps, siteId);
}

export async function addCacheRule(deps: AppDeps, principal: Principal, siteId: number, rule: edge.CacheRule) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const count = await deps.db.selectFrom('site_cache_rules').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', siteId).executeTakeFirst();
  if (toCount(count?.n as number) >= MAX_CACHE_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_CACHE_RULES } });
  await deps.db.insertInto('site_cache_rules').values({ site_id: siteId, rule: JSON.stringify(rule), created_at: now() }).execute();
  await sitesChanged(deps, [site]);
  return siteSettings(deps, siteId);
}

export async function updateCacheRule(deps: AppDeps, principal: Principal, siteId: number, body: edge.CacheRule & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const { id, ...rule } = body;
  const updated = await deps.db.updateTable('site_cache_rules').set({ rule: JSON.stringify(rule) }).where('id', '=', id).where('site_id', '=', siteId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw notFound('cache rule');
  await sitesChanged(deps, [site]);
  return siteSettings(deps, siteId);
}

export async function removeCacheRules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const owned = await deps.db.selectFrom('site_cache_rules').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (owned.length !== new Set(ids).size) throw notFound('cache rule');
  await deps.db.deleteFrom('site_cache_rules').where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
  return siteSettings(deps, siteId);
}

export async function setCompression(deps: AppDeps, principal: Principal, siteId: number, body: { enabled: boolean; webp?: boolean }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await deps.db.updateTable('sites').set({ gzip: body.enabled ? 1 : 0, updated_at: now() }).where('id', '=', siteId).execute();
  if (body.webp !== undefined) await changeOptions(deps, principal, siteId, { webp: body.webp });
  await sitesChanged(deps, [site]);
  return siteSettings(deps, siteId);
}

type PageRow = { id: number; status: number; type: string; body: string; created_at: string; updated_at: string };
const toPage = (p: PageRow) => ({
  id: p.id,
  status: p.status as edge.ErrorPage['status'],
  type: p.type as edge.ErrorPage['type'],
  body: p.body,
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});

export async function listErrorPages(deps: AppDeps, principal: Principal, siteId: number, page: { page: number; pageSize: number }) {
  await sitesRepo(deps, principal).get(siteId);
  const result = await paginate(deps.db.selectFrom('site_error_pages').selectAll().where('site_id', '=', siteId), { page, sortable: {}, defaultSort: { column: 'status', order: 'asc' } });
  return { data: result.data.map(toPage), total: result.total };
}

async function assertStatusFree(deps: AppDeps, siteId: number, status: number, except?: number) {
  let q = deps.db.selectFrom('site_error_pages').select('id').where('site_id', '=', siteId).where('status', '=', status);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'status', message: 'Data already exists!' }] } });
}

export async function addErrorPage(deps: AppDeps, principal: Principal, siteId: number, page: edge.ErrorPage) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertStatusFree(deps, siteId, page.status);
  const at = now();
  const row = await deps.db
    .insertInto('site_error_pages')
    .values({ site_id: siteId, status: page.status, type: page.type, body: page.body, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
  await sitesChanged(deps, [site]);
  return toPage(row);
}

export async function updateErrorPage(deps: AppDeps, principal: Principal, siteId: number, body: edge.ErrorPage & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertStatusFree(deps, siteId, body.status, body.id);
  const updated = await deps.db
    .updateTable('site_error_pages')
    .set({ status: body.status, type: body.type, body: body.body, updated_at: now() })
    .where('id', '=', body.id)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw notFound('error page');
  await sitesChanged(deps, [site]);
  return toPage(await deps.db.selectFrom('site_error_pages').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow());
}

export async function removeErrorPages(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const owned = await deps.db.selectFrom('site_error_pages').select('id').where('site_id', '=', siteId).where('id', 'in', ids).execute();
  if (owned.length !== new Set(ids).size) throw notFound('error page');
  await deps.db.deleteFrom('site_error_pages').where('id', 'in', ids).execute();
  await sitesChanged(deps, [site]);
}

export async function purgeSite(deps: AppDeps, principal: Principal, siteId: number) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const hosts = (await domainNames(deps, siteId)).filter((h) => !h.startsWith('*.'));
  if (!hosts.length) return { nodes: 0 };
  const { nodes } = await queueForZone(deps, principal, site.zoneID, 'clearCache', { hosts });
  return { nodes: nodes.length };
}

/**
 * Purges by URL, each on one of the site's domains: type 1 the exact URLs (without their query when the site
 * keys its cache on the path only), type 2 everything cached under URL prefixes.
 */
export async function purgeUrls(deps: AppDeps, principal: Principal, siteId: number, body: { type: 1 | 2; urls: string[] }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertOwnUrls(deps, siteId, body.urls);
  if (body.type === 2) return { nodes: (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { prefixes: body.urls })).nodes.length };
  const { cache } = await loadOptions(deps.db, siteId);
  const urls = cache.ignoreQuery ? [...new Set(body.urls.map((u) => u.replace(/[?#].*$/, '')))] : body.urls;
  return { nodes: (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { urls })).nodes.length };
}
