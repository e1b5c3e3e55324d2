import type { ApiClient } from '../sync/api-client';
import type { Log } from '../sync/log';
import { takeOutcome } from './releases';

/** At start: says in the upgrade log that the version switched to runs, or that it did not start and was rolled back. */
export async function reportUpgradeOutcome({ api, stateDir, version, log }: { api: Pick<ApiClient, 'upgradeLog'>; stateDir: string; version: string; log: Log }) {
  const outcome = await takeOutcome({ stateDir, version });
  if (!outcome) return;
  const { mark } = outcome;
  const body =
    outcome.kind === 'done'
      ? { message: `version ${version} started and serves (was ${mark.from})`, progress: 100, state: 'complete' as const }
      : { message: `version ${mark.to} exited as it started (exit code ${outcome.code ?? 'unknown'}); rolled back to ${mark.from}, which serves`, state: 'failed' as const };
  log({ msg: 'upgrade', outcome: outcome.kind, ...body });
  if (!mark.upgradeId) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    const posted = await api.upgradeLog({ upgradeId: mark.upgradeId, ...body }).then(() => true, () => false);
    if (posted) return;
    await new Promise((resolve) => setTimeout(resolve, 2000 * (attempt + 1)));
  }
}
