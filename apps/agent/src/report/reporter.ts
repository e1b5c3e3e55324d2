import { masterPid } from '../apply/nginx';
import { blockedIps, setDiskFull } from '../control/client';
import type { Applier } from '../sync/applier';
import type { ApiClient } from '../sync/api-client';
import { sleep } from '../sync/backoff';
import type { Log } from '../sync/log';
import { createSystemMetrics } from './system-metrics';
import type { AgentMetrics } from '../metrics/metrics';
import type { DiskWatch } from './disk-watch';

export type ReporterOptions = {
  api: ApiClient;
  applier: Applier;
  prefix: string;
  version: string;
  intervalMs?: number;
  log: Log;
  metrics?: Pick<AgentMetrics, 'reports'>;
  /** Whether the node's own files can be written (the report's diskFull). */
  disk?: Pick<DiskWatch, 'condition'>;
};

/** Posts a report every `intervalMs` and whenever `now()` is called (after an apply); a failed post waits for the next. */
export const createReporter = ({ api, applier, prefix, version, intervalMs = 10_000, log, metrics: counters, disk }: ReporterOptions) => {
  const metrics = createSystemMetrics({ diskPath: prefix });
  let wake = new AbortController();

  const send = async () => {
    const { appliedRevision, applyError } = applier.status();
    const node = applier.current()?.node;
    const running = (await masterPid({ prefix })) !== undefined;
    const blocked = running ? await blockedIps({ control: await applier.control() }).catch(() => undefined) : undefined;
    const diskFull = disk ? await disk.condition() : undefined;
    // told at every report: a restarted nginx has forgotten it
    if (running && diskFull !== undefined) await setDiskFull({ control: await applier.control(), full: diskFull !== null }).catch(() => undefined);
    await api.report({
      version,
      appliedRevision,
      applyError: applyError && applyError.slice(0, 16_384),
      nginxRunning: running,
      ...(await metrics()),
      ...(blocked ? { blocked: blocked.slice(0, 20_000) } : {}),
      ...(diskFull !== undefined ? { diskFull } : {}),
      // Held and reported back; nginx has no safe way to shape the TCP window of its answers, so nothing is applied.
      ...(node ? { geneva: node.geneva } : {}),
    });
  };

  return {
    now: () => wake.abort(),
    run: async ({ signal }: { signal: AbortSignal }) => {
      while (!signal.aborted) {
        await send().then(
          () => counters?.reports.inc({ outcome: 'ok' }),
          (err: Error) => {
            counters?.reports.inc({ outcome: 'failed' });
            log({ msg: 'report failed', error: err.message });
          },
        );
        await sleep({ ms: intervalMs, signal: AbortSignal.any([signal, wake.signal]) });
        wake = new AbortController();
      }
    },
  };
};

export type Reporter = ReturnType<typeof createReporter>;
