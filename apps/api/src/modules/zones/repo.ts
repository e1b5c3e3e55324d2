import { now, type Db } from '../../db';
import { readZoneSettings } from './defaults';

/** The web ports the nodes of a zone listen on. */
export async function zonePortsOf(db: Db, zoneId: number) {
  const zone = await db.selectFrom('zones').select('settings').where('id', '=', zoneId).executeTakeFirstOrThrow();
  return readZoneSettings(zone.settings).ports;
}

/**
 * Unscoped (the caller reached the zone, or a site of it): queues one action for every enrolled node of the zone;
 * answers the queued commands.
 */
export async function queueZoneCommand(db: Db, zoneId: number, command: { kind: 'clearCache' | 'clearUrlCache' | 'warmCache'; args: object; createdBy: number }) {
  const nodes = await db.selectFrom('nodes').select('id').where('zone_id', '=', zoneId).where('initialized_at', 'is not', null).execute();
  if (!nodes.length) return [] as { id: number }[];
  const at = now();
  return db
    .insertInto('node_commands')
    .values(nodes.map((n) => ({ node_id: n.id, kind: command.kind, args: JSON.stringify(command.args), status: 'queued' as const, created_by: command.createdBy, created_at: at })))
    .returning('id')
    .execute();
}

/** Unscoped, for the statistics' labels: the names of these nodes. */
export const nodeNames = (db: Db, nodeIds: number[]) => db.selectFrom('nodes').select(['id', 'name']).where('id', 'in', nodeIds).execute();
