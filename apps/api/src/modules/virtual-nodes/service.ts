import crypto from 'node:crypto';
import { Codes, type virtualNodeSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { zonesRepo } from '../zones/repo';
import { clientOf } from '../zones/service';
import { virtualNodesRepo, virtualRecordOfNodes, type VirtualNodeRow } from './repo';

type RecordInput = z.infer<typeof virtualNodeSchemas.virtualNodeRecordInput>;
type CreateBody = z.infer<typeof virtualNodeSchemas.createVirtualNodeBody>;
type UpdateBody = z.infer<typeof virtualNodeSchemas.updateVirtualNodeBody>;
type VirtualNodes = ReturnType<typeof virtualNodesRepo>;

async function toItems(repo: VirtualNodes, rows: VirtualNodeRow[]) {
  const records = await repo.records(rows);
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

/** The virtual nodes of a zone the caller sees (`owned`: one it owns, to change them). */
async function virtualNodesOf(deps: AppDeps, principal: Principal, zoneId: number, owned = false) {
  const zones = zonesRepo(deps, await clientOf(deps, principal));
  return virtualNodesRepo(deps.db, await (owned ? zones.owned(zoneId) : zones.get(zoneId)));
}

export async function listVirtualNodes(deps: AppDeps, principal: Principal, zoneId: number, query: z.infer<typeof virtualNodeSchemas.virtualNodesQuery>) {
  const repo = await virtualNodesOf(deps, principal, zoneId);
  const page = await repo.page(query);
  return { data: await toItems(repo, page.data), total: page.total };
}

const one = async (repo: VirtualNodes, id: number) => (await toItems(repo, [await repo.get(id)]))[0];

/** Node records must name ordinary nodes of the same zone; they answer with the node's address. */
async function recordRows(repo: VirtualNodes, virtualNodeId: number, records: RecordInput[]) {
  const rows = [];
  for (const r of records) {
    if (r.type !== 'node') {
      rows.push({ virtual_node_id: virtualNodeId, type: r.type, value: r.value, node_id: null });
      continue;
    }
    const node = await repo.ordinaryNode(r.nodeID);
    if (!node) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'records', message: `node ${r.nodeID} is not an ordinary node of the zone` }] } });
    rows.push({ virtual_node_id: virtualNodeId, type: 'ip' as const, value: node.ip, node_id: node.id });
  }
  return rows;
}

const replaceRecords = async (repo: VirtualNodes, id: number, records: RecordInput[]) => repo.replaceRecords({ id }, await recordRows(repo, id, records));

export async function createVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, body: CreateBody) {
  const repo = await virtualNodesOf(deps, principal, zoneId, true);
  await recordRows(repo, 0, body.records);
  const id = await repo.insert({ node_uid: `v-${crypto.randomBytes(5).toString('hex')}`, name: body.name, memo: body.memo, switch_interval: body.switchInterval });
  await replaceRecords(repo, id, body.records);
  return one(repo, id);
}

export async function updateVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, body: UpdateBody) {
  const repo = await virtualNodesOf(deps, principal, zoneId, true);
  const vnode = await repo.get(body.id);
  if (body.records) await replaceRecords(repo, body.id, body.records);
  await repo.update(vnode, body);
  await refreshResolutions(deps, [zoneId]);
  return one(repo, body.id);
}

/** A virtual node a resolution group still holds is in use (206001). */
export async function removeVirtualNode(deps: AppDeps, principal: Principal, zoneId: number, id: number) {
  const repo = await virtualNodesOf(deps, principal, zoneId, true);
  const vnode = await repo.get(id);
  const grouped = await repo.firstGroup(vnode);
  if (grouped) throw new ApiError(Codes.VirtualNodeInUse, { extra: { groupID: grouped.group_id } });
  await repo.remove(vnode);
}

/** 202004: an ordinary node a virtual node's record still points at. */
export async function assertNotInVirtualNode(deps: AppDeps, nodeIds: number[]) {
  const used = await virtualRecordOfNodes(deps.db, nodeIds);
  if (used) throw new ApiError(Codes.NodeInVirtualNode, { extra: { nodeID: used.node_id, virtualNodeID: used.virtual_node_id } });
}
