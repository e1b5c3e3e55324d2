import { notificationRoutes as r, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { deliverDue } from './delivery';
import { getBotSetting, getPreferences, putBotSetting, putPreferences, sendTestMessage } from './service';
import { sweepWatched } from './watch';

export const DELIVERY_JOB = 'notify-delivery';
export const WATCH_JOB = 'notify-watch';

/** Each account's chat-bot channel and notice choices (all three tiers), and the jobs that watch and deliver. */
export function notificationsRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const tier of TIERS) {
    registerRoute(app, deps, r.tg[tier].get, async ({ principal }) => ({ data: await getBotSetting(deps, principal.accountId) }));
    registerRoute(app, deps, r.tg[tier].put, async ({ principal, body }) => ({ data: await putBotSetting(deps, principal.accountId, body) }));
    registerRoute(app, deps, r.tg[tier].test, async ({ principal }) => ({ data: await sendTestMessage(deps, principal.accountId) }));
    registerRoute(app, deps, r.notify[tier].get, async ({ principal }) => ({ data: await getPreferences(deps, principal.accountId) }));
    registerRoute(app, deps, r.notify[tier].put, async ({ principal, body }) => ({ data: await putPreferences(deps, principal.accountId, body) }));
  }
  deps.scheduler.every({ name: DELIVERY_JOB, everyMs: 10_000, run: () => deliverDue(deps) });
  deps.scheduler.every({ name: WATCH_JOB, everyMs: 30_000, run: () => sweepWatched(deps) });
}
