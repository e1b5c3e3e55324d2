import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { clientOf } from '../zones/service';
import { assertAddressesFree } from './addresses';
import { nodesRepo } from './repo';
import { ownedNodes } from './service';

const toItem = (r: { id: number; node_id: number; ip: string; memo: string; created_at: string }) => ({ id: r.id, nodeID: r.node_id, ip: r.ip, memo: r.memo, createdAt: r.created_at });

export async function listSubNodes(deps: AppDeps, principal: Principal, nodeId: number) {
  const repo = nodesRepo(deps, await clientOf(deps, principal));
  const rows = await repo.subNodes(await repo.get(nodeId));
  return rows.map(toItem);
}

export async function addSubNode(deps: AppDeps, principal: Principal, nodeId: number, body: { ip: string; memo: string }) {
  const { repo, nodes } = await ownedNodes(deps, principal, [nodeId]);
  const node = nodes[0];
  if (node.virtual) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'params', field: 'id', message: 'a virtual node has no sub nodes' }] } });
  await assertAddressesFree(deps, node.zone_id, [body.ip]);
  const row = await repo.addSubNode(node, { ip: body.ip, memo: body.memo });
  await refreshResolutions(deps, [node.zone_id]);
  return toItem(row);
}

/** Removes sub nodes of the node; an id of another node's sub node is refused as missing. */
export async function removeSubNodes(deps: AppDeps, principal: Principal, nodeId: number, ids: number[]) {
  const { repo, nodes } = await ownedNodes(deps, principal, [nodeId]);
  if (!(await repo.removeSubNodes(nodes[0], ids))) throw notFound('sub node');
  await refreshResolutions(deps, [nodes[0].zone_id]);
}
