import { Codes } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { clientOf } from '../zones/service';
import { assertAddressesFree } from './addresses';
import { ownedNodes, visibleNode } from './service';

const toItem = (r: { id: number; node_id: number; ip: string; memo: string; created_at: string }) => ({ id: r.id, nodeID: r.node_id, ip: r.ip, memo: r.memo, createdAt: r.created_at });

export async function listSubNodes(deps: AppDeps, principal: Principal, nodeId: number) {
  await visibleNode(deps, await clientOf(deps, principal), nodeId);
  const rows = await deps.db.selectFrom('node_sub_nodes').selectAll().where('node_id', '=', nodeId).orderBy('id').execute();
  return rows.map(toItem);
}

export async function addSubNode(deps: AppDeps, principal: Principal, nodeId: number, body: { ip: string; memo: string }) {
  const { nodes } = await ownedNodes(deps, principal, [nodeId]);
  const node = nodes[0];
  if (node.virtual) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'params', field: 'id', message: 'a virtual node has no sub nodes' }] } });
  await assertAddressesFree(deps, node.zone_id, [body.ip]);
  const row = await deps.db
    .insertInto('node_sub_nodes')
    .values({ node_id: nodeId, zone_id: node.zone_id, ip: body.ip, memo: body.memo, created_at: now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  await refreshResolutions(deps, [node.zone_id]);
  return toItem(row);
}

/** Removes sub nodes of the node; an id of another node's sub node is refused as missing. */
export async function removeSubNodes(deps: AppDeps, principal: Principal, nodeId: number, ids: number[]) {
  const { nodes } = await ownedNodes(deps, principal, [nodeId]);
  const found = await deps.db.selectFrom('node_sub_nodes').select('id').where('node_id', '=', nodeId).where('id', 'in', ids).execute();
  if (found.length !== new Set(ids).size) throw notFound('sub node');
  await deps.db.deleteFrom('node_sub_nodes').where('id', 'in', ids).execute();
  await refreshResolutions(deps, [nodes[0].zone_id]);
}
