import { rm } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { createCommandPoller } from './commands/command-poller';
import { ensureAsnDb } from './geo/asn-db';
import { runLogShipper, type LogShipperOptions } from './logs/log-shipper';
import { ACCESS_LOG, STREAM_LOG } from './render';
import { createDiskWatch } from './report/disk-watch';
import { createReporter } from './report/reporter';
import { createApiClient, type Fetch } from './sync/api-client';
import { createApplier, type Applier, type ApplierOptions } from './sync/applier';
import { backoffDelay, sleep } from './sync/backoff';
import { readIdentity, writeIdentity, type Identity } from './sync/identity';
import type { Log } from './sync/log';
import { runSyncLoop } from './sync/sync-loop';
import { reportUpgradeOutcome } from './upgrade/outcome';
import type { AgentMetrics } from './metrics/metrics';

export type AgentOptions = ApplierOptions & {
  /** The control plane's base URL; only needed to enrol (afterwards it is read from identity.json). */
  apiUrl?: string;
  /** The one-time token from the console's enrolment dialog. */
  enrollToken?: string;
  version: string;
  hostname?: string;
  fetch?: Fetch;
  log: Log;
  reportIntervalMs?: number;
  commandIntervalMs?: number;
  backoff?: { baseMs?: number; capMs?: number };
  /** Build the ASN database at `asnDb` (default); false: the file is the operator's own, used as it is. */
  buildAsn?: boolean;
  logs?: Pick<LogShipperOptions, 'flushMs' | 'pollMs' | 'maxLines' | 'maxBytes' | 'chunkBytes' | 'rotateGraceMs'>;
  /** The agent's Prometheus metrics (main.ts serves them); none in the tests that do not ask. */
  metrics?: AgentMetrics;
  /** How often the live origins' host names are looked up again (60 s). */
  originRefreshMs?: number;
};

/** The identity on disk, else an enrolment with the token, retried until it answers (or the agent stops). */
const enroll = async (o: AgentOptions & { signal: AbortSignal }): Promise<Identity | undefined> => {
  const known = await readIdentity({ stateDir: o.stateDir });
  if (known) return known;
  if (!o.apiUrl || !o.enrollToken) throw new Error('not enrolled yet: EDGEKEEP_API and EDGEKEEP_ENROLL_TOKEN are needed once');
  const api = createApiClient({ apiUrl: o.apiUrl, fetch: o.fetch });
  for (let attempt = 0; !o.signal.aborted; attempt++) {
    try {
      const result = await api.enroll({ token: o.enrollToken, hostname: o.hostname ?? osHostname(), version: o.version });
      const value = { ...result, apiUrl: o.apiUrl };
      await writeIdentity({ stateDir: o.stateDir, value });
      o.log({ msg: 'enrolled', nodeId: result.nodeId, nodeUID: result.nodeUID });
      return value;
    } catch (err) {
      const ms = backoffDelay({ attempt, ...o.backoff });
      o.log({ msg: 'enrolment failed', error: (err as Error).message, retryInMs: ms });
      await sleep({ ms, signal: o.signal });
    }
  }
  return undefined;
};

/**
 * Builds the node's ASN database when it has none from this version of the data (a few seconds, once), then renders
 * the serving state again so that nginx looks $ek_asn up in it. Until then, or if it fails, $ek_asn stays empty.
 */
const buildAsnDb = async ({ file, applier, log }: { file: string; applier: Applier; log: Log }) => {
  const started = Date.now();
  const built = await ensureAsnDb({ file }).catch((err: Error) => {
    log({ msg: 'no ASN lookups: building the ASN database failed', error: err.message });
  });
  if (!built) return;
  log({ msg: 'ASN database built', file, ms: Date.now() - started, ...built });
  await applier.rerender().catch(async (err: Error) => {
    // The node goes on without it; the next start builds it again.
    await rm(file, { force: true });
    log({ msg: 'no ASN lookups: the configuration with the ASN database did not apply', error: err.message });
  });
};

/**
 * The agent: serves the last good state from disk at once, enrols (once), then follows the control plane,
 * reports, runs commands and ships the access log until `stop()`.
 */
export const startAgent = async (o: AgentOptions) => {
  const { log, stateDir, prefix } = o;
  const controller = new AbortController();
  const signal = controller.signal;
  // STATE_DIR and nginx's logs: the directories the node writes all the time (one filesystem as installed)
  const disk = createDiskWatch({ paths: [stateDir, join(prefix, 'logs')], log });
  const applier = createApplier({ ...o, disk });
  const { metrics } = o;
  metrics?.watch(applier);
  const restored = await applier.restore();
  if (restored) log({ msg: 'serving the last good state from disk', ...applier.status() });
  const asnBuilt = o.asnDb && o.buildAsn !== false ? buildAsnDb({ file: o.asnDb, applier, log }) : undefined;
  // a name's new addresses reach the live origins without a reload; a lookup that fails keeps the last ones
  const originRefresh = setInterval(() => {
    applier.refreshOrigins().catch((err: Error) => log({ msg: 'origin names not refreshed', error: err.message }));
  }, o.originRefreshMs ?? 60_000).unref();
  let restartAsked = false;
  let restartNow = () => {};
  /** Resolves once an upgrade switched versions and its result is posted: the caller stops and exits for the launcher. */
  const restart = new Promise<void>((resolve) => (restartNow = resolve));

  const run = async () => {
    const identity = await enroll({ ...o, signal });
    if (!identity) return;
    const api = createApiClient({ apiUrl: identity.apiUrl, credential: identity.credential, fetch: o.fetch });
    const reporter = createReporter({ api, applier, prefix, version: o.version, intervalMs: o.reportIntervalMs, log, metrics, disk });
    // In the background: a control plane that is away must not hold the node's sync up.
    void reportUpgradeOutcome({ api, stateDir, version: o.version, log }).catch((err: Error) => log({ msg: 'upgrade outcome not reported', error: err.message }));
    const commands = createCommandPoller({
      api, applier, prefix, stateDir, log, intervalMs: o.commandIntervalMs, version: o.version,
      requestRestart: () => (restartAsked = true),
      afterResult: () => restartAsked && restartNow(),
    });
    await Promise.all([
      reporter.run({ signal }),
      commands.run({ signal }),
      runLogShipper({ api, file: join(prefix, ACCESS_LOG), name: 'access', stateDir, log, signal, backoff: o.backoff, metrics, disk, ...o.logs }),
      runLogShipper({ api, file: join(prefix, STREAM_LOG), name: 'stream', kind: 'stream', stateDir, log, signal, backoff: o.backoff, metrics, disk, ...o.logs }),
      runSyncLoop({ api, applier, signal, log, backoff: o.backoff, onApplied: reporter.now, onWake: commands.poke, metrics, disk }),
    ]);
  };
  const done = run();

  return {
    applier,
    done,
    restart,
    /** Stops following the control plane; nginx keeps serving. */
    stop: async () => {
      clearInterval(originRefresh);
      controller.abort();
      await done;
      await asnBuilt;
      await applier.persisted();
    },
  };
};

export type Agent = Awaited<ReturnType<typeof startAgent>>;
