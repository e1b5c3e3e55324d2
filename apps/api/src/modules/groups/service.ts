import { Codes, type siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { clientOf, ownedZone, visibleZone } from '../zones/service';

type GroupRow = { id: number; zone_id: number; name: string; line: string; priority: number; dns_resolve: number; created_at: string; updated_at: string };

async function withMembers(deps: AppDeps, rows: GroupRow[]) {
  const members = rows.length
    ? await deps.db.selectFrom('node_group_members').select(['group_id', 'node_id']).where('group_id', 'in', rows.map((r) => r.id)).orderBy('node_id').execute()
    : [];
  return rows.map((g) => ({
    id: g.id,
    zoneID: g.zone_id,
    name: g.name,
    line: g.line as z.infer<typeof siteSchemas.groupItem>['line'],
    priority: g.priority,
    dnsResolve: g.dns_resolve === 1,
    nodeIDs: members.filter((m) => m.group_id === g.id).map((m) => m.node_id),
    createdAt: g.created_at,
    updatedAt: g.updated_at,
  }));
}

export async function listGroups(deps: AppDeps, principal: Principal, zoneId: number, page: { page: number; pageSize: number }) {
  await visibleZone(deps, await clientOf(deps, principal), zoneId);
  const result = await paginate(deps.db.selectFrom('node_groups').selectAll().where('zone_id', '=', zoneId), {
    page,
    sortable: {},
    defaultSort: { column: 'priority', order: 'asc' },
  });
  return { data: await withMembers(deps, result.data), total: result.total };
}

export async function metaGroups(deps: AppDeps, principal: Principal, zoneId: number) {
  await visibleZone(deps, await clientOf(deps, principal), zoneId);
  return deps.db.selectFrom('node_groups').select(['id', 'name']).where('zone_id', '=', zoneId).orderBy('priority').orderBy('id').execute();
}

/** Every node of a group must be a node of the group's zone (203005). */
async function checkNodes(deps: AppDeps, zoneId: number, nodeIds: number[]) {
  if (!nodeIds.length) return;
  const found = await deps.db.selectFrom('nodes').select('id').where('zone_id', '=', zoneId).where('id', 'in', nodeIds).execute();
  if (found.length !== new Set(nodeIds).size) throw new ApiError(Codes.InvalidGroupNode);
}

async function setMembers(deps: AppDeps, groupId: number, nodeIds: number[]) {
  await deps.db.deleteFrom('node_group_members').where('group_id', '=', groupId).execute();
  if (nodeIds.length) await deps.db.insertInto('node_group_members').values([...new Set(nodeIds)].map((node_id) => ({ group_id: groupId, node_id }))).execute();
}

async function groupInZone(deps: AppDeps, zoneId: number, id: number) {
  const row = await deps.db.selectFrom('node_groups').selectAll().where('id', '=', id).where('zone_id', '=', zoneId).executeTakeFirst();
  if (!row) throw notFound('group');
  return row;
}

type CreateBody = z.infer<typeof siteSchemas.createGroupBody>;
export async function createGroup(deps: AppDeps, principal: Principal, zoneId: number, body: CreateBody) {
  await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await checkNodes(deps, zoneId, body.nodeIDs);
  const at = now();
  const row = await deps.db
    .insertInto('node_groups')
    .values({ zone_id: zoneId, name: body.name, line: body.line, priority: body.priority, dns_resolve: body.dnsResolve ? 1 : 0, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
  await setMembers(deps, row.id, body.nodeIDs);
  await refreshResolutions(deps, [zoneId]);
  return (await withMembers(deps, [row]))[0];
}

type UpdateBody = z.infer<typeof siteSchemas.updateGroupBody>;
export async function updateGroup(deps: AppDeps, principal: Principal, zoneId: number, body: UpdateBody) {
  await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await groupInZone(deps, zoneId, body.id);
  if (body.nodeIDs) await checkNodes(deps, zoneId, body.nodeIDs);
  await deps.db
    .updateTable('node_groups')
    .set({
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.line === undefined ? {} : { line: body.line }),
      ...(body.priority === undefined ? {} : { priority: body.priority }),
      ...(body.dnsResolve === undefined ? {} : { dns_resolve: body.dnsResolve ? 1 : 0 }),
      updated_at: now(),
    })
    .where('id', '=', body.id)
    .execute();
  if (body.nodeIDs) await setMembers(deps, body.id, body.nodeIDs);
  await refreshResolutions(deps, [zoneId]);
  return (await withMembers(deps, [await groupInZone(deps, zoneId, body.id)]))[0];
}

export async function removeGroup(deps: AppDeps, principal: Principal, zoneId: number, id: number) {
  await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await groupInZone(deps, zoneId, id);
  const used = await deps.db
    .selectFrom('products')
    .select('id')
    .where((eb) => eb.or([eb('group_id', '=', id), eb('backup_group_id', '=', id)]))
    .executeTakeFirst();
  if (used) throw new ApiError(Codes.GroupInUse);
  await deps.db.deleteFrom('node_groups').where('id', '=', id).execute();
  await refreshResolutions(deps, [zoneId]);
}
