import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, manages, type Account } from '../accounts/repo';
import { assertCanCreate } from '../licenses/limits';
import { zonesRepo, type ZonesQuery } from './repo';


export async function clientOf(deps: AppDeps, principal: Principal) {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  return actor;
}

/** A zone the client sees (its own, or, for a sub-client, one assigned to it). */
export const visibleZone = (deps: AppDeps, actor: Account, zoneId: number) => zonesRepo(deps, actor).get(zoneId);

/** A zone the client owns: only the owner changes a zone; a sub-client that tries is refused. */
export const ownedZone = (deps: AppDeps, actor: Account, zoneId: number) => zonesRepo(deps, actor).owned(zoneId);

export async function listZones(deps: AppDeps, principal: Principal, query: ZonesQuery) {
  return zonesRepo(deps, await clientOf(deps, principal)).page(query);
}

export async function metaZones(deps: AppDeps, principal: Principal) {
  return zonesRepo(deps, await clientOf(deps, principal)).names();
}

async function assertNameFree(zones: ReturnType<typeof zonesRepo>, name: string, except?: number) {
  if (await zones.nameTaken(name, except)) throw new ApiError(Codes.ZoneNameExists);
}

export async function createZone(deps: AppDeps, principal: Principal, body: { name: string; regions: string; memo: string }) {
  const actor = await clientOf(deps, principal);
  if (!actor.is_root) throw new ApiError(Codes.PermissionDenied, { extra: 'zones are made by the root client' });
  const zones = zonesRepo(deps, actor);
  await assertNameFree(zones, body.name);
  await assertCanCreate(deps, { clientId: actor.id, kind: 'zone' });
  const id = await zones.insert({ name: body.name, regions: body.regions, memo: body.memo });
  await deps.revisions.bump(deps.db, [id]);
  return zones.item(id);
}

export async function updateZone(deps: AppDeps, principal: Principal, body: { id: number; name?: string; regions?: string; memo?: string }) {
  const zones = zonesRepo(deps, await clientOf(deps, principal));
  const zone = await zones.owned(body.id);
  if (body.name) await assertNameFree(zones, body.name, body.id);
  await zones.update(zone, body);
  return zones.item(body.id);
}

export async function removeZone(deps: AppDeps, principal: Principal, id: number) {
  const zones = zonesRepo(deps, await clientOf(deps, principal));
  const zone = await zones.owned(id);
  if ((await zones.nodeCount(zone)) > 0) throw new ApiError(Codes.ZoneHasNodes);
  await zones.remove(zone);
}

async function subClient(deps: AppDeps, principal: Principal, clientId: number) {
  const actor = await clientOf(deps, principal);
  const target = await findAccount(deps.db, clientId);
  if (!target || target.auth !== 'client' || !manages(actor, target)) throw notFound('account');
  return { actor, target };
}

export async function assignedZones(deps: AppDeps, principal: Principal, clientId: number) {
  const { actor } = await subClient(deps, principal, clientId);
  return { zoneIDs: await zonesRepo(deps, actor).assignedTo(clientId) };
}

/** Replaces the zones a sub-client may use; only zones the caller owns can be given. */
export async function assignZones(deps: AppDeps, principal: Principal, clientId: number, zoneIds: number[]) {
  const { actor } = await subClient(deps, principal, clientId);
  const zones = zonesRepo(deps, actor);
  const owned = [];
  for (const id of zoneIds) owned.push(await zones.owned(id));
  await zones.assign(clientId, owned);
  return assignedZones(deps, principal, clientId);
}
