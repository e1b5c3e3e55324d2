import { Codes } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, manages, type Account } from '../accounts/repo';
import { assertCanCreate } from '../licenses/limits';
import { DEFAULT_ZONE_SETTINGS } from './defaults';

export async function clientOf(deps: AppDeps, principal: Principal) {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  return actor;
}

/**
 * The zones a client sees: its own, or, for a sub-client, those assigned to it. Only the owner changes a zone;
 * a sub-client that tries is refused.
 */
export function visibleZones(deps: AppDeps, actor: Account) {
  const q = deps.db.selectFrom('zones');
  return actor.is_root
    ? q.where('zones.client_id', '=', actor.id)
    : q.where('zones.id', 'in', deps.db.selectFrom('zone_assignments').select('zone_id').where('zone_assignments.client_id', '=', actor.id));
}

export async function visibleZone(deps: AppDeps, actor: Account, zoneId: number) {
  const zone = await visibleZones(deps, actor).selectAll('zones').where('zones.id', '=', zoneId).executeTakeFirst();
  if (!zone) throw notFound('zone');
  return zone;
}

export async function ownedZone(deps: AppDeps, actor: Account, zoneId: number) {
  const zone = await visibleZone(deps, actor, zoneId);
  if (zone.client_id !== actor.id) throw new ApiError(Codes.PermissionDenied, { extra: 'only the owner of the zone changes it' });
  return zone;
}

const withNodeCount = (deps: AppDeps, actor: Account) =>
  visibleZones(deps, actor)
    .selectAll('zones')
    .select((eb) => eb.selectFrom('nodes').select(eb.fn.countAll().as('n')).whereRef('nodes.zone_id', '=', 'zones.id').as('node_count'));

type ZoneRow = { id: number; name: string; regions: string; memo: string; revision: number; created_at: string; updated_at: string; node_count: unknown };
const toItem = (z: ZoneRow) => ({
  id: z.id,
  name: z.name,
  regions: z.regions,
  memo: z.memo,
  nodeCount: toCount(z.node_count as number),
  revision: z.revision,
  createdAt: z.created_at,
  updatedAt: z.updated_at,
});

export async function listZones(deps: AppDeps, principal: Principal, query: { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; name?: string }) {
  const actor = await clientOf(deps, principal);
  let q = withNodeCount(deps, actor);
  if (query.name) q = q.where('zones.name', 'like', `%${query.name}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'zones.name', createdAt: 'zones.created_at' }, defaultSort: { column: 'zones.created_at', order: 'desc' }, idColumn: 'zones.id' });
  return { data: page.data.map((r) => toItem(r as ZoneRow)), total: page.total };
}

export async function metaZones(deps: AppDeps, principal: Principal) {
  const actor = await clientOf(deps, principal);
  return visibleZones(deps, actor).select(['zones.id', 'zones.name']).orderBy('zones.name').execute();
}

async function zoneItem(deps: AppDeps, actor: Account, id: number) {
  const row = await withNodeCount(deps, actor).where('zones.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('zone');
  return toItem(row as ZoneRow);
}

async function assertNameFree(deps: AppDeps, clientId: number, name: string, except?: number) {
  let q = deps.db.selectFrom('zones').select('id').where('client_id', '=', clientId).where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new ApiError(Codes.ZoneNameExists);
}

export async function createZone(deps: AppDeps, principal: Principal, body: { name: string; regions: string; memo: string }) {
  const actor = await clientOf(deps, principal);
  if (!actor.is_root) throw new ApiError(Codes.PermissionDenied, { extra: 'zones are made by the root client' });
  await assertNameFree(deps, actor.id, body.name);
  await assertCanCreate(deps, { clientId: actor.id, kind: 'zone' });
  const at = now();
  const row = await deps.db
    .insertInto('zones')
    .values({ client_id: actor.id, name: body.name, regions: body.regions, memo: body.memo, settings: JSON.stringify(DEFAULT_ZONE_SETTINGS), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.revisions.bump(deps.db, [row.id]);
  return zoneItem(deps, actor, row.id);
}

export async function updateZone(deps: AppDeps, principal: Principal, body: { id: number; name?: string; regions?: string; memo?: string }) {
  const actor = await clientOf(deps, principal);
  await ownedZone(deps, actor, body.id);
  if (body.name) await assertNameFree(deps, actor.id, body.name, body.id);
  await deps.db
    .updateTable('zones')
    .set({
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.regions === undefined ? {} : { regions: body.regions }),
      ...(body.memo === undefined ? {} : { memo: body.memo }),
      updated_at: now(),
    })
    .where('id', '=', body.id)
    .execute();
  return zoneItem(deps, actor, body.id);
}

export async function removeZone(deps: AppDeps, principal: Principal, id: number) {
  const actor = await clientOf(deps, principal);
  await ownedZone(deps, actor, id);
  const nodes = await deps.db.selectFrom('nodes').select((eb) => eb.fn.countAll().as('n')).where('zone_id', '=', id).executeTakeFirst();
  if (toCount(nodes?.n as number) > 0) throw new ApiError(Codes.ZoneHasNodes);
  await deps.db.deleteFrom('zones').where('id', '=', id).execute();
}

async function subClient(deps: AppDeps, principal: Principal, clientId: number) {
  const actor = await clientOf(deps, principal);
  const target = await findAccount(deps.db, clientId);
  if (!target || target.auth !== 'client' || !manages(actor, target)) throw notFound('account');
  return { actor, target };
}

export async function assignedZones(deps: AppDeps, principal: Principal, clientId: number) {
  await subClient(deps, principal, clientId);
  const rows = await deps.db.selectFrom('zone_assignments').select('zone_id').where('client_id', '=', clientId).orderBy('zone_id').execute();
  return { zoneIDs: rows.map((r) => r.zone_id) };
}

/** Replaces the zones a sub-client may use; only zones the caller owns can be given. */
export async function assignZones(deps: AppDeps, principal: Principal, clientId: number, zoneIds: number[]) {
  const { actor } = await subClient(deps, principal, clientId);
  for (const id of zoneIds) await ownedZone(deps, actor, id);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('zone_assignments').where('client_id', '=', clientId).execute();
    if (zoneIds.length) await trx.insertInto('zone_assignments').values([...new Set(zoneIds)].map((zone_id) => ({ zone_id, client_id: clientId }))).execute();
  });
  return assignedZones(deps, principal, clientId);
}
