import crypto from 'node:crypto';
import { Codes, type PageQuery } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { decrypt, encrypt, randomToken } from '../../lib/crypto';
import { ApiError } from '../../http/errors';
import { sitesChanged } from '../sites/service';
import { reachModules, saveModule } from './core';
import type { ModuleRow, siteModulesRepo } from './repo';
import { readTokenConfig, type TokenConfig } from './stored';

const KIND = 'tokenAuth' as const;

async function toItems(repo: ReturnType<typeof siteModulesRepo>, rows: ModuleRow[]) {
  const domains = await repo.assignedDomains(rows.map((r) => r.id));
  const counts = await Promise.all(rows.map(async (r) => (await repo.items(r).list(KIND)).length));
  return rows.map((r, i) => {
    const c = readTokenConfig(r.config);
    return { id: r.id, name: r.name, scope: c.scope, expiry: c.expiry, keyHint: c.keyHint, count: counts[i], domains: domains.get(r.id) ?? [], createdAt: r.created_at, updatedAt: r.updated_at };
  });
}

export const keyOf = (deps: Pick<AppDeps, 'secrets'>, config: string) => decrypt(deps.secrets.dataKey, readTokenConfig(config).keySealed);

export async function listTokenAuths(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  const page = await repo.page(KIND, o.query, { name: 'name', createdAt: 'created_at' });
  return { data: await toItems(repo, page.data), total: page.total };
}

/** Creates (no id) or changes a module; a key given or generated is sealed, and answered only when new. */
export async function saveTokenAuth(deps: AppDeps, principal: Principal, o: { siteId: number; body: { id?: number; name: string; scope: 'all' | 'paths'; expiry: number; key?: string } }) {
  const { id, name, scope, expiry } = o.body;
  const reached = await reachModules(deps, principal, o.siteId);
  const previous = id ? readTokenConfig((await reached.repo.module(KIND, id)).config) : undefined;
  const fresh = o.body.key ?? (previous ? undefined : randomToken(24));
  const config: TokenConfig = fresh
    ? { scope, expiry, keySealed: encrypt(deps.secrets.dataKey, fresh), keyHint: fresh.slice(-4) }
    : { ...(previous as TokenConfig), scope, expiry };
  const row = await saveModule(deps, reached, { kind: KIND, id, name, config });
  const [item] = await toItems(reached.repo, [row]);
  return fresh && !o.body.key ? { ...item, key: fresh } : item;
}

export async function addPaths(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; items: string[] }) {
  const { site, repo } = await reachModules(deps, principal, o.siteId);
  const items = repo.items(await repo.module(KIND, o.moduleId));
  const existing = await items.list('tokenAuth');
  const wanted = [...new Set(o.items)];
  const repeated = wanted.filter((p) => existing.some((e) => e.path === p));
  if (repeated.length) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'items', message: `Data already exists! ${repeated.join(', ')}` }] } });
  if (existing.length + wanted.length > 500) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: 500 } });
  await items.add(wanted.map((path) => ({ path })));
  await sitesChanged(deps, [site]);
  return items.list('tokenAuth');
}

export async function listPaths(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  return repo.items(await repo.module(KIND, o.moduleId)).list('tokenAuth');
}

/** The signature the edge checks: hex HMAC-SHA1(key, path + ":" + expires). */
export const signPath = ({ key, path, expires }: { key: string; path: string; expires: number }) =>
  crypto.createHmac('sha1', key).update(`${path}:${expires}`).digest('hex');

export async function sign(deps: AppDeps, principal: Principal, o: { siteId: number; moduleId: number; path: string; expiresIn?: number }) {
  const { repo } = await reachModules(deps, principal, o.siteId);
  const row = await repo.module(KIND, o.moduleId);
  const config = readTokenConfig(row.config);
  const expires = Math.floor(Date.now() / 1000) + (o.expiresIn ?? config.expiry);
  const signature = signPath({ key: keyOf(deps, row.config), path: o.path, expires });
  return { path: o.path, expires, sign: signature, url: `${o.path}?expires=${expires}&sign=${signature}` };
}
