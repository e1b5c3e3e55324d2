import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';

/** 101025 when an address is already a node's or a sub node's in the zone. */
export async function assertAddressesFree(deps: AppDeps, zoneId: number, ips: string[], field = 'ip') {
  if (!ips.length) return;
  const taken =
    (await deps.db.selectFrom('nodes').select('ip').where('zone_id', '=', zoneId).where('ip', 'in', ips).executeTakeFirst()) ??
    (await deps.db.selectFrom('node_sub_nodes').select('ip').where('zone_id', '=', zoneId).where('ip', 'in', ips).executeTakeFirst());
  if (taken) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field, message: `${taken.ip} is already an address of the zone` }] } });
}

/** Nodes moving to another zone take their sub nodes along: their addresses must be free there. */
export async function assertSubNodesMovable(deps: AppDeps, nodeIds: number[], zoneId: number) {
  const moving = await deps.db.selectFrom('node_sub_nodes').select('ip').where('node_id', 'in', nodeIds).where('zone_id', '!=', zoneId).execute();
  await assertAddressesFree(deps, zoneId, moving.map((m) => m.ip), 'ids');
}
