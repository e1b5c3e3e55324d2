import type { Db } from '../../db';
import { readZoneSettings } from './defaults';

/** The web ports the nodes of a zone listen on. */
export async function zonePortsOf(db: Db, zoneId: number) {
  const zone = await db.selectFrom('zones').select('settings').where('id', '=', zoneId).executeTakeFirstOrThrow();
  return readZoneSettings(zone.settings).ports;
}
