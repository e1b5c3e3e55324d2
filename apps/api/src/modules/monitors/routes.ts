import { monitorRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as monitors from './service';

const ok = { data: { ok: true } };
/** How often the scheduler looks for monitors whose interval has passed. */
const TICK_MS = 5000;

export function monitorsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.init, async ({ principal, body }) => (await monitors.initMonitors(deps, principal, body.nodeIDs), ok));
  registerRoute(app, deps, r.list, async ({ principal, query }) => monitors.listMonitors(deps, principal, query));
  registerRoute(app, deps, r.update, async ({ principal, body }) => ({ data: await monitors.updateMonitor(deps, principal, body) }));
  registerRoute(app, deps, r.remove, async ({ principal, body }) => (await monitors.removeMonitors(deps, principal, body.ids), ok));
  registerRoute(app, deps, r.meta, async ({ principal }) => ({ data: await monitors.metaMonitors(deps, principal) }));
  registerRoute(app, deps, r.enable, async ({ principal, body }) => (await monitors.enableMonitors(deps, principal, body.ids, body.enabled), ok));
  registerRoute(app, deps, r.notInit, async ({ principal, query }) => monitors.notInitialized(deps, principal, query));

  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await monitors.runDueMonitors(deps);
    } catch (err) {
      app.log.error({ err }, 'monitor probes failed');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void tick(), TICK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
