import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { addressTakenInZone, subNodeAddressesOutside } from './repo';

/** 101025 when an address is already a node's or a sub node's in the zone. */
export async function assertAddressesFree(deps: AppDeps, zoneId: number, ips: string[], field = 'ip') {
  if (!ips.length) return;
  const taken = await addressTakenInZone(deps.db, zoneId, ips);
  if (taken) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field, message: `${taken} is already an address of the zone` }] } });
}

/** Nodes moving to another zone take their sub nodes along: their addresses must be free there. */
export async function assertSubNodesMovable(deps: AppDeps, nodeIds: number[], zoneId: number) {
  await assertAddressesFree(deps, zoneId, await subNodeAddressesOutside(deps.db, nodeIds, zoneId), 'ids');
}
