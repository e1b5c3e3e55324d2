import fs from 'node:fs';
import type { AppDeps } from '../../deps';
import { partFile, runExport } from './job';
import { claimRun, failLeftRun, processingExports } from './repo';

const DAY_MS = 86_400_000;

/**
 * This app instance's export runs, in the background. On start it takes over the exports a stopped instance
 * left processing, from scratch, or fails those whose window the raw lines no longer cover; on close it stops
 * its runs, which stay processing for the next start.
 */
export function exportRunner(deps: AppDeps) {
  const runs = new Map<string, { controller: AbortController; done: Promise<void> }>();

  const start = (run: { id: number; attempt: number }) => {
    const key = `${run.id}:${run.attempt}`;
    const controller = new AbortController();
    const done = runExport(deps, { ...run, signal: controller.signal })
      .catch((err: Error) => deps.log.error({ err, exportId: run.id }, 'log export run failed'))
      .finally(() => runs.delete(key));
    runs.set(key, { controller, done });
  };

  const resume = async () => {
    const left = await processingExports(deps.db);
    const days = deps.config.logRetentionDays;
    const rawSince = Date.now() - days * DAY_MS;
    for (const row of left) {
      fs.rmSync(partFile(deps, row), { force: true });
      if (row.type !== 'audit' && Date.parse(row.start_time) < rawSince) {
        await failLeftRun(deps.db, row, `interrupted by a restart; its window starts before the ${days} days of raw lines kept`);
        continue;
      }
      const attempt = await claimRun(deps.db, row);
      if (attempt) start({ id: row.id, attempt });
    }
  };

  const stop = async () => {
    for (const run of runs.values()) run.controller.abort();
    await Promise.all([...runs.values()].map((r) => r.done));
  };

  return { start, resume, stop };
}
export type ExportRunner = ReturnType<typeof exportRunner>;
