import { notificationSchemas as n } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import { enqueue, moveWatchedState } from './repo';

/** An event for one account: what happened and to what (the subject's name and any details shown in the notice). */
export type NotifyInput = {
  kind: n.NotifyEvent;
  accountId: number;
  subject: string;
  details?: Record<string, string | number>;
};

/**
 * Raises an event: one queued row per channel, delivered later by the delivery job (which applies the account's
 * choices and retries with backoff). Emitting never waits on a channel, and a failure to queue is logged, never thrown
 * into the event's source.
 */
export async function notify(deps: AppDeps, input: NotifyInput) {
  try {
    const payload = JSON.stringify({ subject: input.subject, details: input.details ?? {} });
    await enqueue(deps.db, { accountId: input.accountId, kind: input.kind, payload, at: now() });
  } catch (err) {
    deps.log.error({ kind: input.kind, accountId: input.accountId, err: (err as Error).message }, 'notice not queued');
  }
}

/**
 * Raises the event only when `subject` (a key naming what changed, like `traffic:12`) moves into `state`: the one
 * caller that moves it raises it, so racing evaluations raise it once, and again only after another state.
 */
export async function notifyOnChange(deps: AppDeps, change: { subject: string; state: string }, input: NotifyInput | null) {
  if (!(await moveWatchedState(deps.db, change.subject, change.state)) || !input) return;
  await notify(deps, input);
}
