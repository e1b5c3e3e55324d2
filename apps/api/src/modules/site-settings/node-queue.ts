import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';

/** Queues one action for every enrolled node of a zone; answers the queued commands. */
export async function queueForZone(deps: AppDeps, principal: Principal, zoneId: number, kind: 'clearCache' | 'clearUrlCache' | 'warmCache', args: object) {
  const nodes = await deps.db.selectFrom('nodes').select('id').where('zone_id', '=', zoneId).where('initialized_at', 'is not', null).execute();
  if (!nodes.length) return { nodes: [] as { id: number }[] };
  const at = now();
  const rows = await deps.db
    .insertInto('node_commands')
    .values(nodes.map((n) => ({ node_id: n.id, kind, args: JSON.stringify(args), status: 'queued' as const, created_by: principal.accountId, created_at: at })))
    .returning('id')
    .execute();
  await deps.revisions.wake(deps.db, [zoneId]);
  return { nodes: rows };
}
