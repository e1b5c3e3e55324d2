import crypto from 'node:crypto';
import { Codes, type PageQuery } from '@edgekeep/contract';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { decrypt, encrypt, randomToken } from '../../lib/crypto';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { domainsOf, itemsOf, moduleOf, saveModule, siteOf } from './core';
import { readTokenConfig, type TokenConfig } from './stored';

const KIND = 'tokenAuth' as const;
type Row = { id: number; name: string; config: string; created_at: string; updated_at: string };

async function toItems(deps: AppDeps, rows: Row[]) {
  const domains = await domainsOf(deps, rows.map((r) => r.id));
  const counts = await Promise.all(rows.map(async (r) => (await itemsOf(deps, r.id, KIND)).length));
  return rows.map((r, i) => {
    const c = readTokenConfig(r.config);
    return { id: r.id, name: r.name, scope: c.scope, expiry: c.expiry, keyHint: c.keyHint, count: counts[i], domains: domains.get(r.id) ?? [], createdAt: r.created_at, updatedAt: r.updated_at };
  });
}

export const keyOf = (deps: Pick<AppDeps, 'secrets'>, config: string) => decrypt(deps.secrets.dataKey, readTokenConfig(config).keySealed);

export async function listTokenAuths(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  await siteOf(deps, principal, o.siteId);
  let q = deps.db.selectFrom('site_modules').select(['id', 'name', 'config', 'created_at', 'updated_at']).where('site_id', '=', o.siteId).where('kind', '=', KIND);
  if (o.query.name) q = q.where('name', 'like', `%${o.query.name}%`);
  const page = await paginate(q, { page: o.query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

/** Creates (no id) or changes a module; a key given or generated is sealed, and answered only when new. */
export async function saveTokenAuth(deps: AppDeps, principal: Principal, o: { siteId: number; body: { id?: number; name: string; scope: 'all' | 'paths'; expiry: number; key?: string } }) {
  const { id, name, scope, expiry } = o.body;
  await siteOf(deps, principal, o.siteId);
  const previous = id ? readTokenConfig((await moduleOf(deps, o.siteId, KIND, id)).config) : undefined;
  const fresh = o.body.key ?? (previous ? undefined : randomToken(24));
  const config: TokenConfig = fresh
    ? { scope, expiry, keySealed: encrypt(deps.secrets.dataKey, fresh), keyHint: fresh.slice(-4) }
    : { ...(previous as TokenConfig), scope, expiry };
  const row = await saveModule(deps, principal, { siteId: o.siteId, kind: KIND, id, name, config });
  const [item] = await toItems(deps, [row]);
  return fresh && !o.body.key ? { ...item, key: fresh } : item;
}

export async function addPaths(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; items: string[] }) {
  const site = await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  const existing = await itemsOf(deps, o.moduleId, 'tokenAuth');
  const wanted = [...new Set(o.items)];
  const repeated = wanted.filter((p) => existing.some((e) => e.path === p));
  if (repeated.length) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'items', message: `Data already exists! ${repeated.join(', ')}` }] } });
  if (existing.length + wanted.length > 500) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: 500 } });
  const at = now();
  await deps.db.insertInto('site_module_items').values(wanted.map((path) => ({ module_id: o.moduleId, item: JSON.stringify({ path }), created_at: at }))).execute();
  await sitesChanged(deps, [site]);
  return itemsOf(deps, o.moduleId, 'tokenAuth');
}

export async function listPaths(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  await siteOf(deps, principal, o.siteId);
  await moduleOf(deps, o.siteId, KIND, o.moduleId);
  return itemsOf(deps, o.moduleId, 'tokenAuth');
}

/** The signature the edge checks: hex HMAC-SHA1(key, path + ":" + expires). */
export const signPath = ({ key, path, expires }: { key: string; path: string; expires: number }) =>
  crypto.createHmac('sha1', key).update(`${path}:${expires}`).digest('hex');

export async function sign(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; path: string; expiresIn?: number }) {
  await siteOf(deps, principal, o.siteId);
  const row = await moduleOf(deps, o.siteId, KIND, o.moduleId);
  const config = readTokenConfig(row.config);
  const expires = Math.floor(Date.now() / 1000) + (o.expiresIn ?? config.expiry);
  const signature = signPath({ key: keyOf(deps, row.config), path: o.path, expires });
  return { path: o.path, expires, sign: signature, url: `${o.path}?expires=${expires}&sign=${signature}` };
}
