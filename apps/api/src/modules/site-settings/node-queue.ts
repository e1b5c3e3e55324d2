import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { queueZoneCommand } from '../zones/repo';

/** Queues one action for every enrolled node of a zone and wakes their watch; answers the queued commands. */
export async function queueForZone(deps: AppDeps, principal: Principal, zoneId: number, kind: 'clearCache' | 'clearUrlCache' | 'warmCache', args: object) {
  const nodes = await queueZoneCommand(deps.db, zoneId, { kind, args, createdBy: principal.accountId });
  if (!nodes.length) return { nodes };
  await deps.revisions.wake(deps.db, [zoneId]);
  return { nodes };
}
