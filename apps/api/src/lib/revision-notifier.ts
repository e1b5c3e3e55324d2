import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../db';

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
 * One connection that LISTENs for the notices of every instance (this one too), reconnecting after a drop (with `onGap`, since
 * notices sent meanwhile are lost and every watcher should look again, every kept credential be read again). Resolves
 * once it listens.
 */
export async function listenForZones(o: { url: string; log: Logger; onNotice: (zones: number[]) => void; onCredentials: (zones: number[]) => void; onGap: () => void }) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const c = new pg.Client({ connectionString: o.url });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped || closed) return;
      dropped = true;
      client = undefined;
      o.log.warn({ err: err?.message }, 'revision notices: connection lost, reconnecting');
      c.end().catch(() => undefined);
      retry = setTimeout(() => void connect().then(o.onGap, () => drop()), 1000);
    };
    c.on('notification', (m) => {
      const zones = parse(m.payload);
      if (zones) (m.channel === CREDENTIALS_CHANNEL ? o.onCredentials : o.onNotice)(zones);
    });
    c.on('error', drop);
    c.on('end', () => drop());
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}; LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (err) {
      drop(err as Error);
      throw err;
    }
    client = c;
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
