import { clientSettingSchemas as s } from '@edgekeep/contract';
import { z } from 'zod';
import type { Db } from '../../db';
import { readSetting, writeSetting } from '../client-settings/repo';

const NAME = 'nginx';
export const nginxSetting = z.object({ http: z.string(), stream: z.string(), worker: z.string(), custom: z.string() });
export type NginxSetting = z.infer<typeof nginxSetting>;
const EMPTY: NginxSetting = { http: '', stream: '', worker: '', custom: '' };

export const readNginx = (db: Db, clientId: number) => readSetting(db, { clientId, name: NAME, schema: nginxSetting, fallback: EMPTY });
export const writeNginx = (db: Db, clientId: number, value: NginxSetting) => writeSetting(db, { clientId, name: NAME, value });

/** The client's directives as the edge takes them: worker directives go to nginx's main context, custom ones to every site's servers. */
export async function edgeDirectivesOfZone(db: Db, zoneId: number) {
  const zone = await db.selectFrom('zones').select('client_id').where('id', '=', zoneId).executeTakeFirstOrThrow();
  return asEdgeDirectives(await readNginx(db, zone.client_id));
}

/** The edge's places of the client's contexts; a value stored before a rule tightened is left out rather than sent. */
export const asEdgeDirectives = (setting: NginxSetting) => {
  const checked = (text: string) => (s.nginxDirectiveIssues(text).length ? '' : text);
  return { main: checked(setting.worker), http: checked(setting.http), stream: checked(setting.stream), server: checked(setting.custom) };
};

/** The enrolled nodes of the client's zones whose last apply was refused, with nginx's words. */
export const refusingNodes = (db: Db, clientId: number) =>
  db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .select(['nodes.id as nodeID', 'nodes.name as nodeName', 'nodes.zone_id as zoneID', 'nodes.apply_error as error'])
    .where('zones.client_id', '=', clientId)
    .where('nodes.apply_error', 'is not', null)
    .orderBy('nodes.id')
    .execute() as Promise<{ nodeID: number; nodeName: string; zoneID: number; error: string }[]>;
