import { Codes, type dnsSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { decrypt, encrypt } from '../../lib/crypto';
import { clientOf } from '../zones/service';
import { providerOf } from './provider';
import { DnsProviderError } from './powerdns';
import * as repo from './repo';
import { syncClient } from './sync';

type Body = z.infer<typeof dnsSettingSchemas.dnsSettingBody>;
type TasksQuery = z.infer<typeof dnsSettingSchemas.dnsTasksQuery>;

/** The DNS provider belongs to a root client: its zones' site CNAMEs are what it answers. */
export async function dnsOwner(deps: AppDeps, principal: Principal) {
  const actor = await clientOf(deps, principal);
  if (!actor.is_root) throw new ApiError(Codes.PermissionDenied, { extra: 'the DNS provider is set by the root client' });
  return actor.id;
}

export async function getDnsSetting(deps: AppDeps, principal: Principal) {
  const row = await repo.findSetting(deps.db, await dnsOwner(deps, principal));
  return {
    type: (row?.type ?? null) as Body['type'] | null,
    apiUrl: row?.api_url ?? '',
    apiKeySet: Boolean(row),
    serverID: row?.server_id ?? 'localhost',
    ttl: row?.ttl ?? 60,
    cnameDomain: deps.config.cnameDomain,
    updatedAt: row?.updated_at ?? null,
  };
}

/** The key of the body, else the stored one; without either the settings are incomplete (101003). */
async function keyOf(deps: AppDeps, clientId: number, body: Body) {
  if (body.apiKey) return body.apiKey;
  const row = await repo.findSetting(deps.db, clientId);
  if (row) return decrypt(deps.secrets.dataKey, row.api_key_sealed);
  throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'apiKey', message: 'Required Field!' }] } });
}

/** Connects with the settings; a provider that cannot be used is an invalid DNS setting (101006). */
async function connect(settings: { type: string; apiUrl: string; apiKey: string; serverID: string; ttl: number }) {
  try {
    return await providerOf(settings).test();
  } catch (err) {
    if (err instanceof DnsProviderError) throw new ApiError(Codes.InvalidDnsSetting, { extra: err.message });
    throw err;
  }
}

export async function testDnsSetting(deps: AppDeps, principal: Principal, body: Body) {
  const clientId = await dnsOwner(deps, principal);
  const { version } = await connect({ ...body, apiKey: await keyOf(deps, clientId, body) });
  return { ok: true as const, version };
}

/** Stores the provider once it answers, sets the client's DNS type, and writes the site CNAMEs to it. */
export async function putDnsSetting(deps: AppDeps, principal: Principal, body: Body) {
  const clientId = await dnsOwner(deps, principal);
  const apiKey = await keyOf(deps, clientId, body);
  await connect({ ...body, apiKey });
  await repo.saveSetting(deps.db, {
    client_id: clientId,
    type: body.type,
    api_url: body.apiUrl,
    server_id: body.serverID,
    api_key_sealed: encrypt(deps.secrets.dataKey, apiKey),
    ttl: body.ttl,
    updated_at: now(),
  });
  await syncClient(deps, clientId, { rewriteAll: true }).catch((err: Error) => deps.log.warn({ clientId, err: err.message }, 'dns sync after setting failed'));
  return getDnsSetting(deps, principal);
}

export async function listDnsTasks(deps: AppDeps, principal: Principal, query: TasksQuery) {
  const page = await repo.listPending(deps.db, await dnsOwner(deps, principal), query);
  return {
    total: page.total,
    data: page.data.map((r) => {
      const records = repo.parseRecords(r.records);
      return { id: r.id, zone: r.zone, name: r.name, type: r.type, action: records.length ? ('replace' as const) : ('delete' as const), records, attempts: r.attempts, lastError: r.last_error, updatedAt: r.updated_at };
    }),
  };
}

async function configuredOwner(deps: AppDeps, principal: Principal) {
  const clientId = await dnsOwner(deps, principal);
  if (!(await repo.findSetting(deps.db, clientId))) throw new ApiError(Codes.InvalidDnsSetting, { extra: 'no DNS provider is set' });
  return clientId;
}

/** Sends the unprocessed tasks again now. */
export async function repairDns(deps: AppDeps, principal: Principal) {
  return syncClient(deps, await configuredOwner(deps, principal));
}

/** Rewrites every record set of the client at the provider, making its zones again where they are missing. */
export async function recoverDns(deps: AppDeps, principal: Principal) {
  const clientId = await configuredOwner(deps, principal);
  try {
    return await syncClient(deps, clientId, { rewriteAll: true });
  } catch (err) {
    if (err instanceof DnsProviderError) throw new ApiError(Codes.DnsExecution, { extra: err.message });
    throw err;
  }
}
