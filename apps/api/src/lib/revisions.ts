import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';
import type { Db } from '../db';
import { markZonesRevised, nextRevision, zoneRevisionOf } from '../modules/zones/repo';
import { listenForZones, notifyZones } from './revision-notifier';

const ALL = 'zone:*';
/**
 * How long a zone's revision, once read, answers the watches and state calls that come after: every bump drops it
 * (on this instance at once, on the others with the notice, which comes once the new revision is committed, and all
 * of it when notices may have been lost), so this only bounds a notice that never came.
 */
const REVISION_KNOWN_MS = 30_000;

/**
 * Desired-state revisions. Every change that alters what a zone's nodes serve takes the next value of one
 * platform-wide counter and wakes the agents watching that zone. On SQLite (one instance) watchers wake at once; on
 * PostgreSQL (`databaseUrl`) every instance on the database hears the change through LISTEN/NOTIFY, once it is
 * committed, and wakes its own.
 */
export async function createRevisionBus(opts: { databaseUrl?: string; log?: Logger; watchers?: Gauge } = {}) {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  /** Told of zones whose nodes' credentials changed (undefined: any zone's may have). */
  const credentialListeners = new Set<(zoneIds: number[] | undefined) => void>();
  let released = false;
  const credentialsChanged = (zoneIds: number[] | undefined) => {
    for (const listener of credentialListeners) listener(zoneIds);
  };
  /** What was read of each zone (`readOnce`), by name: a wake of the zone drops it. */
  const kept = new Map<number, Map<string, { read: Promise<unknown>; until: number }>>();
  const emit = (zoneIds: number[]) => {
    for (const id of zoneIds) {
      kept.delete(id);
      bus.emit(`zone:${id}`);
    }
  };
  /**
   * `read` of the zone, made once for all who ask while it is under way and then for `keepMs` at most, until the
   * zone's next bump or wake: the zone's watchers wake together, and its nodes ask for their states together. A read
   * under way when the zone wakes is not given to those who ask after the wake; a failed read is not kept.
   */
  const readOnce = <T>(zoneId: number, name: string, read: () => Promise<T>, keepMs = 0): Promise<T> => {
    let reads = kept.get(zoneId);
    if (!reads) kept.set(zoneId, (reads = new Map()));
    const known = reads.get(name);
    if (known && known.until > Date.now()) return known.read as Promise<T>;
    const entry = { read: read(), until: Infinity };
    const forget = () => void (kept.get(zoneId)?.get(name) === entry && kept.get(zoneId)!.delete(name));
    entry.read.then(() => (keepMs ? (entry.until = Date.now() + keepMs) : forget()), forget);
    reads.set(name, entry);
    return entry.read;
  };
  const listener =
    opts.databaseUrl && opts.log
      ? await listenForZones({
          url: opts.databaseUrl,
          log: opts.log,
          onNotice: (zones) => emit(zones),
          onCredentials: credentialsChanged,
          onGap: () => {
            kept.clear();
            credentialsChanged(undefined);
            bus.emit(ALL);
          },
        })
      : undefined;

  // With PostgreSQL even this instance's watchers wake on the notice, which comes once the change is committed; what it
  // kept of the zones is dropped at once as well (a call right after the change reads again) and again on the notice.
  const wake = async (db: Db, zoneIds: number[]) => {
    if (!listener) return emit(zoneIds);
    for (const id of zoneIds) kept.delete(id);
    if (zoneIds.length) await notifyZones(db, zoneIds);
  };

  return {
    /**
     * Gives the zones a new revision and wakes their watchers. `only.sites`: the change touched those sites of the
     * zones and nothing else their nodes serve, so a node's state is built again for them alone; without it, for
     * every site of the zones.
     */
    async bump(db: Db, zoneIds: number[], only?: { sites: number[] }) {
      // one commit (and, with kept answers on PostgreSQL, one notice of the tables written) rather than one a statement
      const revision = await db.transaction().execute(async (tx) => {
        const next = await nextRevision(tx);
        await markZonesRevised(tx, zoneIds, next, only);
        return next;
      });
      await wake(db, zoneIds);
      return revision;
    },
    /** Wakes the zones' watchers without a new revision: their agents look for queued commands (a purge, say). */
    wake,
    /**
     * Tells every instance (this one at once) that the zones' nodes' credentials changed: a node deleted, moved to
     * another zone, enrolled again or revoked. The agent gateway drops the nodes it keeps by credential and ends their
     * watch streams.
     */
    async credentialsChanged(db: Db, zoneIds: number[]) {
      credentialsChanged(zoneIds);
      if (listener && zoneIds.length) await notifyZones(db, zoneIds, { credentials: true });
    },
    /** Calls `listener` with the zones of every such change (undefined: any zone's may have changed); answers how to stop. */
    onCredentialsChanged: (listener: (zoneIds: number[] | undefined) => void) => {
      credentialListeners.add(listener);
      return () => void credentialListeners.delete(listener);
    },
    readOnce,
    /** Drops what this instance kept of the zone's `readOnce(name)`: the next to ask reads it again. */
    forgetRead: (zoneId: number, name: string) => void kept.get(zoneId)?.delete(name),
    /**
     * The zone's revision, read once for all who ask until the zone's next bump or wake (`readOnce`): a zone's nodes
     * watch again together after each change, and each watch and state call asks for it.
     */
    revision: (db: Db, zoneId: number) =>
      readOnce(
        zoneId,
        'revision',
        async () => {
          const revision = await zoneRevisionOf(db, zoneId);
          if (revision === undefined) throw new Error(`no zone ${zoneId}`);
          return revision;
        },
        REVISION_KNOWN_MS,
      ),
    /**
     * `woke` resolves at the zone's next bump or wake, after `ms`, or at `stop()` (the watch's client left): watchers
     * read the zone's revision afterwards. A callback rather than an AbortSignal: a thousand watches come and go with
     * each change, and an aborted signal makes an exception object each time.
     */
    next(zoneId: number, ms: number) {
      if (released) return { woke: Promise.resolve(), stop: () => undefined };
      opts.watchers?.inc();
      let done = () => {};
      const woke = new Promise<void>((resolve) => {
        let waiting = true;
        done = () => {
          if (!waiting) return;
          waiting = false;
          opts.watchers?.dec();
          clearTimeout(timer);
          bus.off(`zone:${zoneId}`, done);
          bus.off(ALL, done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        bus.once(`zone:${zoneId}`, done);
        bus.once(ALL, done);
      });
      return { woke, stop: () => done() };
    },
    /** Answers every waiting watch at once, and every later one without waiting (at shutdown): streams end. */
    release: () => {
      released = true;
      bus.emit(ALL);
    },
    /** Whether `release` was called: the server is shutting down. */
    get released() {
      return released;
    },
    close: async () => listener?.close(),
  };
}
export type RevisionBus = Awaited<ReturnType<typeof createRevisionBus>>;
