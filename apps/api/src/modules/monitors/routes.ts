import { monitorGroupRoutes as g, monitorRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as groups from './groups';
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
  registerRoute(app, deps, g.list, async ({ principal, query }) => groups.listGroups(deps, principal, query));
  registerRoute(app, deps, g.meta, async ({ principal }) => ({ data: await groups.metaGroups(deps, principal) }));
  registerRoute(app, deps, g.create, async ({ principal, body }) => ({ data: await groups.createGroup(deps, principal, body) }));
  registerRoute(app, deps, g.update, async ({ principal, body }) => ({ data: await groups.updateGroup(deps, principal, body) }));
  registerRoute(app, deps, g.remove, async ({ principal, body }) => (await groups.removeGroups(deps, principal, body.ids), ok));
  registerRoute(app, deps, g.members, async ({ principal, params, query }) => {
    await groups.ownGroup(deps, principal, params.groupID);
    return monitors.listMonitors(deps, principal, query, params.groupID);
  });
  registerRoute(app, deps, g.addMembers, async ({ principal, params, body }) => (await groups.addMembers(deps, principal, params.groupID, body.nodeIDs), ok));
  registerRoute(app, deps, g.removeMembers, async ({ principal, params, body }) => (await groups.removeMembers(deps, principal, params.groupID, body.nodeIDs), ok));

  deps.scheduler.every({ name: 'monitor-probes', everyMs: TICK_MS, run: () => monitors.runDueMonitors(deps) });
}
