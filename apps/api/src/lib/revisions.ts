import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../db';

/**
 * Desired-state revisions. Every change that alters what a zone's nodes serve takes the next value of one
 * platform-wide counter and wakes the agents watching that zone. (One API instance: an in-process bus; several
 * instances would relay the same event through PostgreSQL LISTEN/NOTIFY.)
 */
export function createRevisionBus() {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    /** Gives the zones a new revision and wakes their watchers. */
    async bump(db: Db, zoneIds: number[]) {
      const next = await sql<{ value: number }>`update revisions set value = value + 1 where id = 1 returning value`.execute(db);
      const revision = Number(next.rows[0].value);
      if (zoneIds.length) await db.updateTable('zones').set({ revision }).where('id', 'in', zoneIds).execute();
      for (const id of zoneIds) bus.emit(`zone:${id}`, revision);
      return revision;
    },
    /** Resolves at the zone's next bump, or with undefined after `ms`. */
    next(zoneId: number, ms: number, signal?: AbortSignal) {
      return new Promise<number | undefined>((resolve) => {
        const done = (rev?: number) => {
          clearTimeout(timer);
          bus.off(`zone:${zoneId}`, done);
          signal?.removeEventListener('abort', onAbort);
          resolve(rev);
        };
        const onAbort = () => done(undefined);
        const timer = setTimeout(done, ms);
        bus.once(`zone:${zoneId}`, done);
        signal?.addEventListener('abort', onAbort);
      });
    },
  };
}
export type RevisionBus = ReturnType<typeof createRevisionBus>;
