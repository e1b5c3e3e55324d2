import type { ApiClient } from './api-client';
import type { Applier } from './applier';
import { backoffDelay, sleep } from './backoff';
import { receivedState } from './received-state';
import type { Log } from './log';
import type { AgentMetrics } from '../metrics/metrics';
import type { DiskWatch } from '../report/disk-watch';

export type SyncLoopOptions = {
  api: ApiClient;
  applier: Applier;
  signal: AbortSignal;
  log: Log;
  /** After each apply, refused state and watch answer. */
  onApplied: () => void;
  /** After a watch answer that does not say that no action waits for the node. */
  onWake: () => void;
  backoff?: { baseMs?: number; capMs?: number; random?: () => number };
  metrics?: Pick<AgentMetrics, 'applies' | 'applyDuration'>;
  /** A state refused for lack of space is applied again at the next watch answer once the disk has room. */
  disk?: Pick<DiskWatch, 'room'>;
};

/** A watch stream cut after this long is opened again at once; one cut sooner waits as any failure does. */
const STREAM_LIVED_MS = 1000;

const revisionOf = (json: unknown) =>
  json && typeof json === 'object' && 'revision' in json && typeof json.revision === 'number' ? json.revision : undefined;

/**
 * Follows the control plane: fetches the state at (re)connect and whenever the watch stream says the revision moved,
 * unless the answer carried the delta from the state held (the stream names its build), and hands it to the applier.
 * A state that does not parse or does not apply is reported and the node keeps serving what it has; the loop never
 * stops for it. Failures to reach the control plane back off with jitter.
 */
export const runSyncLoop = async ({ api, applier, signal, log, onApplied, onWake, backoff, metrics, disk }: SyncLoopOptions) => {
  let known = applier.status().appliedRevision ?? 0;
  let needState = true;
  let attempt = 0;

  /** The state the watch's delta made, else fetched (a delta from the build held when the API keeps it), applied. */
  const fetchAndApply = async (delta?: unknown) => {
    const held = applier.current();
    let json = delta;
    let received = delta === undefined ? undefined : receivedState(delta, held);
    if (!received) {
      json = await api.state({ signal, base: held?.etag });
      received = receivedState(json, held);
    }
    if (!received) {
      json = await api.state({ signal });
      received = receivedState(json, undefined)!;
    }
    if (!received.ok) {
      const revision = revisionOf(json) ?? known;
      applier.refuse({ error: `the state of revision ${revision} is not valid: ${received.error}` });
      log({ msg: 'state refused', revision });
      known = revision;
      return;
    }
    const { state } = received;
    known = state.revision;
    if (state.revision === applier.status().appliedRevision && !applier.status().applyError) return;
    const timer = metrics?.applyDuration.startTimer();
    const result = await applier.apply(state);
    const outcome = !result.ok ? 'failed' : result.reloaded ? 'reload' : 'data';
    timer?.({ outcome });
    metrics?.applies.inc({ outcome });
    log(result.ok ? { msg: 'state applied', revision: state.revision, reloaded: result.reloaded } : { msg: 'apply failed', revision: state.revision, error: result.error });
  };

  while (!signal.aborted) {
    /** When the stream was opened; whether a state is being fetched and applied (a failure then is not the stream's). */
    let opened: number | undefined;
    let applying = false;
    try {
      if (needState) {
        await fetchAndApply();
        needState = false;
        onApplied();
      }
      // The API streams the watch's answers; after a delta it carries the next one from the build that delta made.
      // When the node holds another build (it fetched its state instead), it watches again naming that one.
      opened = Date.now();
      for await (const answer of api.watchStream({ since: known, base: applier.current()?.etag, signal })) {
        attempt = 0;
        if (answer.commands !== false) onWake();
        if (answer.revision === known && !(applier.failedForSpace() && (await disk?.room()))) continue;
        applying = true;
        await fetchAndApply(answer.delta);
        onApplied();
        applying = false;
        if (applier.current()?.etag !== (answer.delta as { etag?: unknown } | undefined)?.etag) break;
      }
    } catch (err) {
      if (signal.aborted) break;
      // A stream that lived a while and was cut (its API instance went away) is opened again at once, naming what the
      // node holds: the balancer sends it to another instance, and its first line says whether anything moved.
      if (opened !== undefined && !applying && Date.now() - opened >= STREAM_LIVED_MS) {
        log({ msg: 'watch stream cut', error: (err as Error).message });
        continue;
      }
      const ms = backoffDelay({ attempt: attempt++, ...backoff });
      log({ msg: 'control plane unreachable', error: (err as Error).message, retryInMs: ms });
      needState = true;
      await sleep({ ms, signal });
    }
  }
};
