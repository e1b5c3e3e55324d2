import { trafficRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { createPlan, listPlans, monthlyUsages, removePlans, resourceInfo, updatePlan } from './service';
import { evaluateTraffic } from './state';

/** Sites' traffic states are re-evaluated this often besides after each fold of new log lines and each plan change. */
const SWEEP_MS = 60_000;

export function trafficRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.plans, async ({ principal, query }) => listPlans(deps, principal, query));
  registerRoute(app, deps, r.createPlan, async ({ principal, body }) => ({ data: await createPlan(deps, principal, body) }));
  registerRoute(app, deps, r.updatePlan, async ({ principal, body }) => ({ data: await updatePlan(deps, principal, body) }));
  registerRoute(app, deps, r.removePlans, async ({ principal, body }) => {
    await removePlans(deps, principal, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.monthlyUsages, async ({ principal, query }) => monthlyUsages(deps, principal, query));
  registerRoute(app, deps, r.userPlans, async ({ principal, query }) => listPlans(deps, principal, query));
  registerRoute(app, deps, r.userMonthlyUsages, async ({ principal, query }) => monthlyUsages(deps, principal, query));
  registerRoute(app, deps, r.resourceInfo, async ({ principal }) => ({ data: await resourceInfo(deps, principal) }));

  deps.scheduler.every({ name: 'traffic-evaluation', everyMs: SWEEP_MS, run: () => evaluateTraffic(deps) });
  const stops: (() => void)[] = [];
  app.addHook('onReady', async () => {
    stops.push(
      deps.analytics.onFolded((siteIds) => {
        evaluateTraffic(deps, { siteIds }).catch((err: Error) => deps.log.error({ err: err.message }, 'traffic evaluation failed'));
      }),
    );
  });
  app.addHook('onClose', async () => {
    for (const stop of stops.splice(0)) stop();
  });
}
