import { join } from 'node:path';
import { edge, keptJsonPieces, perObject } from '@edgekeep/contract';
import { applyState } from '../apply/apply';
import { currentRelease, readControlToken } from '../apply/layout';
import { masterPid } from '../apply/nginx';
import { reloadNginx, startNginx, stopNginx, waitForControl } from '../apply/process';
import { controlStatus, pushData } from '../control/client';
import { SNI_FILE, liveOriginNames, luaData, siteCachePaths, sniCertificates, splitLive, withOriginAddresses, type CityDb } from '../render';
import { readJson, writeFileAtomic } from './files';
import { createLatestWriter } from './latest-writer';
import { livePush, type HeldLive } from './live-push';
import { createOriginNames, type OriginNames } from './origin-names';
import { createSerial } from './serial';
import type { DiskWatch } from '../report/disk-watch';

export type ApplierOptions = {
  prefix: string;
  /** Where the agent keeps its own files (identity, last good state, log offsets). */
  stateDir: string;
  controlPort: number;
  nginxBin?: string;
  modulesDir?: string;
  builtinModules?: boolean;
  /** Where the node keeps its ASN database; nginx looks $ek_asn up in it once it is there. */
  asnDb?: string;
  /** The city database nginx looks $ek_region and $ek_city up in. */
  cityDb?: CityDb;
  /** A country database instead of the one the agent carries. */
  countryDb?: string;
  /** Where the live origins' host names are looked up (the system resolver when not given). */
  originNames?: OriginNames;
};

export type Applied = { ok: true; revision: number; reloaded: boolean } | { ok: false; revision: number; error: string };

/** The last good state is written at once after a quiet spell, and during a stream of changes once this interval. */
const PERSIST_INTERVAL_MS = 2000;

const keyOf = (part: object) => JSON.stringify(part, (k, v: unknown) => (k === 'certificateId' ? v !== null : v));
/** Each rendered site's part of the key, once per site: a site kept from state to state is the same object (render/live.ts). */
const siteKey = perObject((site: edge.SiteStructure) => keyOf(site));

/**
 * What only a reload can change: the structure nginx renders, the live domains left out (render/live.ts), and the
 * sites' own cache zones, which nginx declares for their live domains too. Which
 * certificate a domain uses, and the certificates themselves, are pushed data (served by SNI name); only whether a
 * rendered domain has one at all decides its HTTPS server.
 */
const reloadKeys = new WeakMap<edge.DesiredState, string>();
const reloadKey = (state: edge.DesiredState) => {
  let key = reloadKeys.get(state);
  if (key === undefined) {
    const { zone, sites } = splitLive({ state }).structure;
    key = [keyOf(zone), siteCachePaths({ state }), ...sites.map(siteKey)].join('\n');
    reloadKeys.set(state, key);
  }
  return key;
};

/** The document pushed into the Lua runtime: its data, and the certificates by SNI name. */
const pushed = (state: edge.DesiredState) => ({ ...luaData({ state }), certificates: sniCertificates({ state }) });

/**
 * Applies desired states to the node one at a time. A structure change is rendered and applied with a reload;
 * a data change goes through the control endpoint, no reload. The last state that applied is kept in
 * `STATE_DIR/state.json`, so that a restarted agent serves it before the control plane answers; that file and the
 * release's data file are written after the change is in force (during a stream of changes once an interval), off the propagation path: from
 * each kept entry's JSON and a chunk at a time (keptJsonPieces), so that a write never holds the thread for long.
 */
export const createApplier = (o: ApplierOptions & { disk?: Pick<DiskWatch, 'failed' | 'wrote'> }) => {
  const { prefix, controlPort, nginxBin } = o;
  const stateFile = join(o.stateDir, 'state.json');
  const serial = createSerial();
  const names = o.originNames ?? createOriginNames();
  /** The last state that applied, as the control plane sent it, and as it serves: its live origins' names resolved. */
  let current: edge.DesiredState | undefined;
  let served: edge.DesiredState | undefined;
  let applyError: string | null = null;
  /** The last apply, or the write of its state, failed for lack of space: worth trying again once there is room. */
  let noSpace = false;

  const control = async () => ({ port: controlPort, token: await readControlToken({ prefix }) });

  const ensureRunning = async () => {
    if ((await masterPid({ prefix })) !== undefined) return;
    await startNginx({ prefix, nginxBin });
    await waitForControl({ control: await control() });
  };

  /** Keeps the serving release's data file in step with the pushed data, for the next reload or restart. */
  const writeReleaseData = async (state: edge.DesiredState) => {
    const release = await currentRelease({ prefix });
    if (!release) throw new Error('no release is in place');
    await writeFileAtomic({ file: join(prefix, 'releases', release, 'data.json'), content: keptJsonPieces(luaData({ state })), mode: 0o644 });
    await writeFileAtomic({ file: join(prefix, 'releases', release, SNI_FILE), content: JSON.stringify(sniCertificates({ state })) + '\n', mode: 0o600 });
  };

  const persisted = createLatestWriter<{ state: edge.DesiredState; served: edge.DesiredState; releaseData: boolean }>({
    // a stream of changes is written once an interval, not after each (a state of 100,000 domains is tens of megabytes)
    intervalMs: PERSIST_INTERVAL_MS,
    write: async ({ state, served: data, releaseData }) => {
      if (releaseData) await writeReleaseData(data);
      await writeFileAtomic({ file: stateFile, content: keptJsonPieces(state) });
      o.disk?.wrote();
    },
    onError: (err) => {
      applyError = `keeping the state on disk: ${err.message}`;
      noSpace = o.disk?.failed(err) ?? false;
    },
  });

  /**
   * The cache policies the configuration serving has a location for: those of the state it was rendered from. A
   * state whose live domains use no other is pushed; one that drops some keeps their locations until a reload that
   * comes anyway, so that rules going and coming back do not reload each time.
   */
  let rendered = new Set<string>();
  const policiesOf = (state: edge.DesiredState) => new Set(splitLive({ state }).policies.keys());

  /** The live domains the runtime holds, when known: a push sends what changed in them (sync/live-push.ts). */
  let heldLive: HeldLive | undefined;

  const full = async (state: edge.DesiredState): Promise<Applied> => {
    heldLive = undefined;
    // A data write still waiting would land in the release this apply replaces.
    await persisted.flush();
    const result = await applyState({ state, prefix, controlPort, nginxBin, modulesDir: o.modulesDir, builtinModules: o.builtinModules, asnDb: o.asnDb, cityDb: o.cityDb, countryDb: o.countryDb });
    if (!result.ok) {
      // A refused reload has already run the new release's Lua boot, which loaded its data into the shared dictionary.
      if (result.stage === 'reload' && served) {
        await pushData({ control: await control(), data: pushed(served) }).catch(() => undefined);
      }
      return { ok: false, revision: state.revision, error: `${result.stage}: ${result.error}` };
    }
    await ensureRunning();
    rendered = policiesOf(state);
    return { ok: true, revision: state.revision, reloaded: result.reloaded };
  };

  const dataOnly = async (state: edge.DesiredState): Promise<Applied> => {
    if ((await masterPid({ prefix })) === undefined) {
      // an older state's data still waiting would overwrite this one's
      await persisted.flush();
      await writeReleaseData(state);
      await ensureRunning();
    } else {
      const doc = pushed(state);
      const { push, next } = livePush({ doc, lives: splitLive({ state }).lives, held: heldLive });
      heldLive = undefined;
      await pushData({ control: await control(), data: push }).catch(async (err: Error) => {
        // the runtime holds another list than the delta's base (nginx restarted from its data file): the whole list
        if (!push.liveDelta || !err.message.includes('base is not held')) throw err;
        await pushData({ control: await control(), data: doc });
      });
      heldLive = next;
    }
    return { ok: true, revision: state.revision, reloaded: false };
  };

  type Settle = { state: edge.DesiredState; next: edge.DesiredState; run: () => Promise<Applied>; releaseData?: boolean };
  const settle = async ({ state, next, run, releaseData = false }: Settle) => {
    const result = await run().catch((err: Error): Applied => ({ ok: false, revision: state.revision, error: err.message }));
    if (!result.ok) {
      applyError = result.error;
      noSpace = o.disk?.failed(result.error) ?? false;
      return result;
    }
    current = state;
    served = next;
    applyError = null;
    noSpace = false;
    persisted.schedule({ state, served: next, releaseData });
    return result;
  };

  /**
   * Applies `state` as it serves, its live origins' names replaced by their last known addresses (a name without
   * any refuses the state, as nginx refuses a server block's): a reload when that changes what nginx renders (or
   * `reload`), else a push.
   */
  const serve = (state: edge.DesiredState, { reload = false } = {}) => {
    const { state: next, unresolved } = withOriginAddresses({ state, addresses: names.addresses });
    if (unresolved.length) {
      const error = `origin host not found: ${unresolved.join(', ')}`;
      return settle({ state, next, run: async () => ({ ok: false, revision: state.revision, error }) });
    }
    const structural = reload || !served || reloadKey(served) !== reloadKey(next) || [...policiesOf(next)].some((p) => !rendered.has(p));
    return settle({ state, next, run: () => (structural ? full(next) : dataOnly(next)), releaseData: !structural });
  };

  return {
    /** The revision serving now and the last apply's failure. */
    status: () => ({ appliedRevision: current?.revision ?? null, applyError }),
    current: () => current,
    /** Whether the last failure was a write refused for lack of space (the state is worth applying again once there is room). */
    failedForSpace: () => noSpace,
    /** Resolves once the files behind what serves are written. */
    persisted: () => persisted.flush(),
    /** Records why a state from the control plane was not even tried; the node keeps what it serves. */
    refuse: ({ error }: { error: string }) => {
      applyError = error;
    },
    /** Runs a node action that must not overlap an apply. */
    exclusive: <T>(task: () => Promise<T>) => serial(task),

    apply: (state: edge.DesiredState) =>
      serial(async () => {
        await names.learn(liveOriginNames({ state }));
        return serve(state);
      }),

    /** Looks the live origins' names up again (periodically): addresses that changed are pushed, no reload. */
    refreshOrigins: () =>
      serial(async () => {
        if (current && (await names.refresh(liveOriginNames({ state: current })))) await serve(current);
      }),

    /** Brings back the last good state from disk (at start); false when there is none. */
    restore: () =>
      serial(async () => {
        const parsed = edge.desiredState.safeParse(await readJson({ file: stateFile }));
        if (!parsed.success) return false;
        const state = parsed.data;
        await names.learn(liveOriginNames({ state }));
        const running = (await masterPid({ prefix })) !== undefined;
        const serving = running && (await controlStatus({ control: await control() }).catch(() => undefined));
        // the state nginx serves becomes the applied one (for the next reload check: a live origin name not
        // resolved now is live all the same)
        const adopt = () => {
          current = state;
          served = withOriginAddresses({ state, addresses: names.addresses }).state;
          // at least these: nginx serves a configuration rendered from this state or one before it that kept them
          rendered = policiesOf(served);
        };
        // nginx outlived the agent and serves that very revision: nothing to reload.
        if (serving && serving.revision === state.revision) {
          adopt();
          return true;
        }
        const result = await serve(state, { reload: true });
        // A disk too full for a new release (or a live origin name that does not resolve now): nginx serves the
        // release on disk, which is that state's.
        if (!result.ok && !running && (await currentRelease({ prefix })) && (await ensureRunning().then(() => true, () => false))) adopt();
        return true;
      }),

    /** Renders the last good state into a fresh release and restarts nginx on it. */
    reset: () =>
      serial(async () => {
        if (!current) throw new Error('no state has been applied yet');
        const result = await serve(current, { reload: true });
        if (!result.ok) throw new Error(result.error);
        await stopNginx({ prefix });
        await ensureRunning();
      }),

    /** Renders the serving state into a new release and reloads, for a file on the node the render reads (the ASN database). */
    rerender: () =>
      serial(async () => {
        if (!current) return;
        const result = await serve(current, { reload: true });
        if (!result.ok) throw new Error(result.error);
      }),

    restart: () =>
      serial(async () => {
        // nginx starts from the release's data files: those of the state serving
        await persisted.flush();
        await stopNginx({ prefix });
        await ensureRunning();
      }),

    reload: () => serial(async () => reloadNginx({ prefix, control: await control() })),
    control,
  };
};

export type Applier = ReturnType<typeof createApplier>;
