import type { AppDeps } from '../../deps';
import type { Scheduler } from '../../jobs/scheduler';

export const DNS_SYNC_JOB = 'dns-sync';

const dirty = new WeakMap<Scheduler, boolean>();

/** Asks for a sync now (after a change of nodes, groups, sites or health), without waiting for it. */
export function requestDnsSync(deps: Pick<AppDeps, 'scheduler' | 'log'>) {
  dirty.set(deps.scheduler, true);
  deps.scheduler.runNow(DNS_SYNC_JOB).catch((err: Error) => deps.log.warn({ err: err.message }, 'dns sync request failed'));
}

/** Whether a sync was asked for since the last call, which clears the request. */
export function takeSyncRequest(scheduler: Scheduler) {
  const asked = dirty.get(scheduler) ?? false;
  dirty.set(scheduler, false);
  return asked;
}
