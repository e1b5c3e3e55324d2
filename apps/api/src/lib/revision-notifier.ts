import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db';
import { listen } from '../db/notices';

const CHANNEL = 'edgekeep_revisions';
/** Zones whose nodes' credentials changed (a node deleted, moved, enrolled again or revoked). */
const CREDENTIALS_CHANNEL = 'edgekeep_node_credentials';
/** NOTIFY payloads stay far below PostgreSQL's 8000-byte limit. */
const ZONES_PER_NOTICE = 500;


/**
 * Tells every API instance on the database that zones moved (or, with `credentials`, that their nodes' credentials
 * changed); delivered when the change's transaction commits.
 */
export async function notifyZones(db: Db, zones: number[], { credentials = false } = {}) {
  for (let i = 0; i < zones.length; i += ZONES_PER_NOTICE) {
    const payload = JSON.stringify(zones.slice(i, i + ZONES_PER_NOTICE));
    await sql`select pg_notify(${credentials ? CREDENTIALS_CHANNEL : CHANNEL}, ${payload})`.execute(db);
  }
}

const parse = (payload: string | undefined) => {
  try {
    const zones = JSON.parse(payload ?? '') as unknown;
    return Array.isArray(zones) && zones.every(Number.isInteger) ? (zones as number[]) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Listens for the notices of every instance (this one too), reconnecting after a drop (with `onGap`, since notices
 * sent meanwhile are lost and every watcher should look again, every kept credential be read again). Resolves once it
 * listens.
 */
export function listenForZones(o: { url: string; log: Logger; onNotice: (zones: number[]) => void; onCredentials: (zones: number[]) => void; onGap: () => void }) {
  const on = (handler: (zones: number[]) => void) => (payload: string | undefined) => {
    const zones = parse(payload);
    if (zones) handler(zones);
  };
  return listen({ url: o.url, log: o.log, what: 'revision notices', channels: { [CHANNEL]: on(o.onNotice), [CREDENTIALS_CHANNEL]: on(o.onCredentials) }, onGap: o.onGap });
}
