import { now, type Db } from '../../db';

/*
 * The nodes' queued actions as the agents and the warm-ups see them: unscoped, each keyed by the node the agent's
 * credential names, its zone, or the ids a zone's warm-up kept. A client queues and lists a node's actions through
 * `nodesRepo`.
 */

/** Unscoped: the actions with these ids (a zone's warm-up keeps them), each with its node, by node name. */
export const commandsWithNodes = (db: Db, commandIds: number[]) =>
  db
    .selectFrom('node_commands')
    .innerJoin('nodes', 'nodes.id', 'node_commands.node_id')
    .select(['nodes.id as nodeID', 'nodes.name as nodeName', 'node_commands.status', 'node_commands.message', 'node_commands.finished_at as finishedAt'])
    .where('node_commands.id', 'in', commandIds)
    .orderBy('nodes.name')
    .execute();

/** Unscoped, for the watch: the nodes of the zone with actions waiting (queued, or sent and not answered yet). */
export async function nodesWithCommandsWaiting(db: Db, zoneId: number) {
  const rows = await db
    .selectFrom('node_commands')
    .innerJoin('nodes', 'nodes.id', 'node_commands.node_id')
    .select('node_commands.node_id')
    .distinct()
    .where('nodes.zone_id', '=', zoneId)
    .where('node_commands.status', 'in', ['queued', 'sent'])
    .execute();
  return new Set(rows.map((r) => r.node_id));
}

/** Unscoped, for the agent: the node's waiting actions; those queued count as sent from now on. */
export async function takeWaitingCommands(db: Db, nodeId: number) {
  const rows = await db.selectFrom('node_commands').selectAll().where('node_id', '=', nodeId).where('status', 'in', ['queued', 'sent']).orderBy('id').execute();
  if (rows.length) await db.updateTable('node_commands').set({ status: 'sent' }).where('id', 'in', rows.map((r) => r.id)).where('status', '=', 'queued').execute();
  return rows;
}

/** Unscoped, for the agent: records the outcome of the node's action; answers false when the node has no such action. */
export async function answerCommand(db: Db, nodeId: number, commandId: number, result: { ok: boolean; message: string | null }) {
  const updated = await db
    .updateTable('node_commands')
    .set({ status: result.ok ? 'done' : 'failed', message: result.message, finished_at: now() })
    .where('id', '=', commandId)
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
