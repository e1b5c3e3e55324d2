import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';
import type { Db } from '../db';
import { listenForZones, notifyZones } from './revision-notifier';

const ALL = 'zone:*';

/**
 * Desired-state revisions. Every change that alters what a zone's nodes serve takes the next value of one
 * platform-wide counter and wakes the agents watching that zone. On SQLite (one instance) watchers wake at once; on
 * PostgreSQL (`databaseUrl`) every instance on the database hears the change through LISTEN/NOTIFY, once it is
 * committed, and wakes its own.
 */
export async function createRevisionBus(opts: { databaseUrl?: string; log?: Logger; watchers?: Gauge } = {}) {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const emit = (zoneIds: number[]) => {
    for (const id of zoneIds) bus.emit(`zone:${id}`);
  };
  const listener =
    opts.databaseUrl && opts.log
      ? await listenForZones({
          url: opts.databaseUrl,
          log: opts.log,
          onNotice: (zones) => emit(zones),
          onGap: () => bus.emit(ALL),
        })
      : undefined;

  // With PostgreSQL even this instance's watchers wake on the notice, which comes once the change is committed.
  const wake = async (db: Db, zoneIds: number[]) => {
    if (!listener) return emit(zoneIds);
    if (zoneIds.length) await notifyZones(db, zoneIds);
  };

  return {
    /** Gives the zones a new revision and wakes their watchers. */
    async bump(db: Db, zoneIds: number[]) {
      const next = await sql<{ value: number }>`update revisions set value = value + 1 where id = 1 returning value`.execute(db);
      const revision = Number(next.rows[0].value);
      if (zoneIds.length) await db.updateTable('zones').set({ revision, revision_at: new Date().toISOString() }).where('id', 'in', zoneIds).execute();
      await wake(db, zoneIds);
      return revision;
    },
    /** Wakes the zones' watchers without a new revision: their agents look for queued commands (a purge, say). */
    wake,
    /** Resolves at the zone's next bump or wake, or after `ms`; watchers read the zone's revision afterwards. */
    next(zoneId: number, ms: number, signal?: AbortSignal) {
      opts.watchers?.inc();
      let waiting = true;
      return new Promise<void>((resolve) => {
        const done = () => {
          if (!waiting) return;
          waiting = false;
          opts.watchers?.dec();
          clearTimeout(timer);
          bus.off(`zone:${zoneId}`, done);
          bus.off(ALL, done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        bus.once(`zone:${zoneId}`, done);
        bus.once(ALL, done);
        signal?.addEventListener('abort', done);
      });
    },
    /** Answers every waiting watch at once (at shutdown). */
    release: () => {
      bus.emit(ALL);
    },
    close: async () => listener?.close(),
  };
}
export type RevisionBus = Awaited<ReturnType<typeof createRevisionBus>>;
