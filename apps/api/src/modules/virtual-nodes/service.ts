import crypto from 'node:crypto';
import { Codes, type virtualNodeSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { clientOf, ownedZone, visibleZone } from '../zones/service';

type RecordInput = z.infer<typeof virtualNodeSchemas.virtualNodeRecordInput>;
type CreateBody = z.infer<typeof virtualNodeSchemas.createVirtualNodeBody>;
type UpdateBody = z.infer<typeof virtualNodeSchemas.updateVirtualNodeBody>;

const base = (deps: AppDeps, zoneId: number) =>
  deps.db
    .selectFrom('nodes')
    .innerJoin('virtual_nodes', 'virtual_nodes.node_id', 'nodes.id')
    .select(['nodes.id', 'nodes.node_uid', 'nodes.zone_id', 'nodes.name', 'nodes.memo', 'nodes.created_at', 'nodes.updated_at', 'virtual_nodes.switch_interval'])
    .where('nodes.zone_id', '=', zoneId);
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;

async function toItems(deps: AppDeps, rows: Row[]) {
  const records = rows.length
    ? await deps.db.selectFrom('virtual_node_records').selectAll().where('virtual_node_id', 'in', rows.map((r) => r.id)).orderBy('id').execute()
    : [];
  return rows.map((r) => ({
    id: r.id,
    nodeUID: r.node_uid,
    zoneID: r.zone_id,
    name: r.name,
    switchInterval: r.switch_interval,
    records: records.filter((x) => x.virtual_node_id === r.id).map((x) => ({ id: x.id, type: x.type, value: x.value, nodeID: x.node_id })),
    memo: r.memo,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export async function listVirtualNodes(deps: AppDeps, principal: Principal, zoneId: number, query: z.infer<typeof virtualNodeSchemas.virtualNodesQuery>) {
  await visibleZone(deps, await clientOf(deps, principal), zoneId);
  let q = base(deps, zoneId);
  if (query.name) q = q.where('nodes.name', 'like', `%${query.name}%`);
  const page = await paginate(q, { page: query, sortable: { name: 'nodes.name', createdAt: 'nodes.created_at' }, defaultSort: { column: 'nodes.created_at', order: 'desc' }, idColumn: 'nodes.id' });
  return { data: await toItems(deps, page.data), total: page.total };
}

async function one(deps: AppDeps, zoneId: number, id: number) {
  const row = await base(deps, zoneId).where('nodes.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('virtual node');
  return (await toItems(deps, [row]))[0];
}

/** Node records must name ordinary nodes of the same zone; they answer with the node's address. */
async function recordRows(deps: AppDeps, zoneId: number, virtualNodeId: number, records: RecordInput[]) {
  const rows = [];
  for (const r of records) {
    if (r.type !== 'node') {
      rows.push({ virtual_node_id: virtualNodeId, type: r.type, value: r.value, node_id: null });
      continue;
    }
    const node = await deps.db.selectFrom('nodes').select(['id', 'ip']).where('id', '=', r.nodeID).where('zone_id', '=', zoneId).where('virtual', '=', 0).executeTakeFirst();
    if (!node) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'records', message: `node ${r.nodeID} is not an ordinary node of the zone` }] } });
    rows.push({ virtual_node_id: virtualNodeId, type: 'ip' as const, value: node.ip, node_id: node.id });
  }
  return rows;
}

async function replaceRecords(deps: AppDeps, zoneId: number, id: number, records: RecordInput[]) {
  const rows = await recordRows(deps, zoneId, id, records);
  await deps.db.deleteFrom('virtual_node_records').where('virtual_node_id', '=', id).execute();
  await deps.db.insertInto('virtual_node_records').values(rows).execute();
}

export async function createVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, body: CreateBody) {
  const zone = await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await recordRows(deps, zoneId, 0, body.records);
  const at = now();
  const row = await deps.db
    .insertInto('nodes')
    .values({
      zone_id: zone.id,
      client_id: zone.client_id,
      node_uid: `v-${crypto.randomBytes(5).toString('hex')}`,
      name: body.name,
      ip: '',
      type: 'edge',
      virtual: 1,
      role: 'main',
      port_type: 7,
      bandwidth: 0,
      cache_capacity: 0,
      memo: body.memo,
      enabled: 1,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db.insertInto('virtual_nodes').values({ node_id: row.id, switch_interval: body.switchInterval }).execute();
  await replaceRecords(deps, zoneId, row.id, body.records);
  return one(deps, zoneId, row.id);
}

export async function updateVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, body: UpdateBody) {
  await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await one(deps, zoneId, body.id);
  if (body.records) await replaceRecords(deps, zoneId, body.id, body.records);
  if (body.switchInterval !== undefined) await deps.db.updateTable('virtual_nodes').set({ switch_interval: body.switchInterval }).where('node_id', '=', body.id).execute();
  await deps.db
    .updateTable('nodes')
    .set({ ...(body.name === undefined ? {} : { name: body.name }), ...(body.memo === undefined ? {} : { memo: body.memo }), updated_at: now() })
    .where('id', '=', body.id)
    .execute();
  await refreshResolutions(deps, [zoneId]);
  return one(deps, zoneId, body.id);
}

/** A virtual node a resolution group still holds is in use (206001). */
export async function removeVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, id: number) {
  await ownedZone(deps, await clientOf(deps, principal), zoneId);
  await one(deps, zoneId, id);
  const grouped = await deps.db.selectFrom('node_group_members').select('group_id').where('node_id', '=', id).executeTakeFirst();
  if (grouped) throw new ApiError(Codes.VirtualNodeInUse, { extra: { groupID: grouped.group_id } });
  await deps.db.deleteFrom('nodes').where('id', '=', id).execute();
}

/** 202004: an ordinary node a virtual node's record still points at. */
export async function assertNotInVirtualNode(deps: AppDeps, nodeIds: number[]) {
  const used = await deps.db.selectFrom('virtual_node_records').select(['node_id', 'virtual_node_id']).where('node_id', 'in', nodeIds).executeTakeFirst();
  if (used) throw new ApiError(Codes.NodeInVirtualNode, { extra: { nodeID: used.node_id, virtualNodeID: used.virtual_node_id } });
}
