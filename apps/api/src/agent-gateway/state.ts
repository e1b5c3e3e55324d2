import { edge } from '@edgekeep/contract';
import type { Db } from '../db';
import type { ZoneSettings } from '../modules/zones/service';

/**
 * The one function that builds a node's desired state from the database: its zone's ports and nginx settings,
 * and what every site served in the zone needs. (Sites, their domains, origins, certificates and rules join
 * the state as their modules land.)
 */
export async function buildNodeState(db: Db, nodeId: number): Promise<edge.DesiredState> {
  const zone = await db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .select(['zones.settings', 'zones.revision'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const settings = JSON.parse(zone.settings) as ZoneSettings;
  return edge.desiredState.parse({
    revision: zone.revision,
    structure: {
      zone: {
        httpPorts: settings.ports.httpPorts,
        httpsPorts: settings.ports.httpsPorts,
        nginx: { ...settings.nginxWorker, ...settings.nginxHttp },
      },
      sites: [],
    },
    data: { sites: [], certificates: [] },
  });
}
