import { Codes, type dnsSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { dnsProvider } from './provider';
import * as repo from './repo';
import { dnsOwner } from './service';
import { requestDnsSync } from './sync-request';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findCname>>>;
const toItem = (r: Row) => ({ id: r.id, domain: r.domain, enabled: r.disabled === 0, memo: r.memo, createdAt: r.created_at, updatedAt: r.updated_at });

export async function listCnames(deps: AppDeps, principal: Principal, query: z.infer<typeof dnsSettingSchemas.cnamesQuery>) {
  const page = await repo.listCnames(deps.db, await dnsOwner(deps, principal), query);
  return { data: page.data.map(toItem), total: page.total };
}

export async function cnameMeta(deps: AppDeps, principal: Principal) {
  return (await repo.enabledCnames(deps.db, await dnsOwner(deps, principal))).map((r) => ({ id: r.id, domain: r.domain }));
}

async function one(deps: AppDeps, clientId: number, id: number) {
  const row = await repo.findCname(deps.db, clientId, id);
  if (!row) throw notFound('CNAME domain');
  return row;
}

/** An enabled CNAME domain is a zone at the client's provider (when one is set); 101010 when the provider refuses it. */
async function servedZone(deps: AppDeps, clientId: number, domain: string) {
  await (await dnsProvider(deps, { clientId }))?.ensureZone(domain);
}

export async function createCname(deps: AppDeps, principal: Principal, body: z.infer<typeof dnsSettingSchemas.createCnameBody>) {
  const clientId = await dnsOwner(deps, principal);
  if (await repo.findCnameByDomain(deps.db, clientId, body.domain)) throw new ApiError(Codes.Duplicated, { extra: { field: 'domain', value: body.domain } });
  if (body.enabled) await servedZone(deps, clientId, body.domain);
  const id = await repo.insertCname(deps.db, clientId, body);
  requestDnsSync(deps);
  return toItem(await one(deps, clientId, id));
}

export async function updateCname(deps: AppDeps, principal: Principal, body: z.infer<typeof dnsSettingSchemas.updateCnameBody>) {
  const clientId = await dnsOwner(deps, principal);
  const row = await one(deps, clientId, body.id);
  if (body.enabled) await servedZone(deps, clientId, row.domain);
  await repo.updateCname(deps.db, clientId, body.id, body);
  requestDnsSync(deps);
  return toItem(await one(deps, clientId, body.id));
}

/** An enabled CNAME domain is in use: it must be disabled before it is removed. */
export async function removeCnames(deps: AppDeps, principal: Principal, ids: number[]) {
  const clientId = await dnsOwner(deps, principal);
  const rows = await repo.cnamesIn(deps.db, clientId, ids);
  if (rows.length !== new Set(ids).size) throw notFound('CNAME domain');
  const enabled = rows.find((r) => r.disabled === 0);
  if (enabled) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'ids', message: `${enabled.domain} is enabled: disable it first` }] } });
  await repo.deleteCnames(deps.db, clientId, ids);
  return { ok: true };
}
