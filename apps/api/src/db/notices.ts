import pg from 'pg';
import type { Logger } from 'pino';

/** How long a round trip on the listening connection may take before a call gives up waiting for it (`caughtUp`). */
const ROUND_TRIP_MS = 1000;

export type Listening = {
  /** Which connection listens: a new number after each drop (notices sent while none listened are lost); undefined while none does. */
  connection(): number | undefined;
  /**
   * Resolves once every notice committed before it was asked for has arrived: a round trip on the listening connection,
   * since PostgreSQL sends a listener the notices it holds before it answers (one round trip at a time, shared by all
   * who ask while it is under way). Rejects while none listens.
   */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
};

/**
 * One connection that LISTENs on `channels` of the database, each notice's payload given to its channel's handler,
 * reconnecting a second after a drop (and calling `onGap` once it listens again, since notices sent meanwhile are
 * lost). Resolves once it listens.
 */
export async function listen(o: { url: string; log: Pick<Logger, 'warn'>; what: string; channels: Record<string, (payload: string | undefined) => void>; onGap: () => void }): Promise<Listening> {
  let client: pg.Client | undefined;
  let number = 0;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const c = new pg.Client({ connectionString: o.url, application_name: `edgekeep ${o.what}` });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped || closed) return;
      dropped = true;
      if (client === c) client = undefined;
      o.log.warn({ err: err?.message }, `${o.what}: connection lost, reconnecting`);
      c.end().catch(() => undefined);
      retry = setTimeout(() => void connect().then(o.onGap, () => drop()), 1000);
    };
    c.on('notification', (m) => o.channels[m.channel]?.(m.payload));
    c.on('error', drop);
    c.on('end', () => drop());
    try {
      await c.connect();
      await c.query(Object.keys(o.channels).map((channel) => `LISTEN ${channel};`).join(' '));
    } catch (err) {
      drop(err as Error);
      throw err;
    }
    number++;
    client = c;
  };

  let trip: Promise<void> | undefined;
  let nextTrip: Promise<void> | undefined;
  const roundTrip = (c: pg.Client) =>
    new Promise<void>((resolve, reject) => {
      // a connection that stopped answering without closing (the server's host gone) fails the call, not hangs it
      const timer = setTimeout(() => reject(new Error(`${o.what}: no answer in ${ROUND_TRIP_MS} ms`)), ROUND_TRIP_MS);
      c.query('SELECT 1').then(
        () => (clearTimeout(timer), resolve()),
        (err: unknown) => (clearTimeout(timer), reject(err)),
      );
    });
  const caughtUp = (): Promise<void> => {
    if (!client) return Promise.reject(new Error(`${o.what}: not listening`));
    if (!trip) {
      const t: Promise<void> = roundTrip(client).finally(() => void (trip === t && (trip = undefined)));
      return (trip = t);
    }
    // the trip under way may have been asked before this caller's notices were sent: the next one is its own
    const again = () => ((nextTrip = undefined), caughtUp());
    return (nextTrip ??= trip.then(again, again));
  };

  await connect();
  return {
    connection: () => (client ? number : undefined),
    caughtUp,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
