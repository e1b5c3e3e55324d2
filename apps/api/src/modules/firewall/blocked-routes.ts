import { blockedIpRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as blocked from './blocked-service';

export function blockedIpRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.list, async ({ principal, params, query }) => blocked.listSiteBlocked(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.remove, async ({ principal, params, body }) => ({ data: await blocked.unblockSite(deps, principal, params.siteId, body.ips) }));
  registerRoute(app, deps, r.removeAll, async ({ principal, params }) => ({ data: await blocked.unblockSite(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.userList, async ({ principal, query }) => blocked.listUserBlocked(deps, principal, query));
  registerRoute(app, deps, r.userRemove, async ({ principal, body }) => ({ data: await blocked.unblockUser(deps, principal, body.blocks) }));
  // A client reaches the sites of its users (sitesRepo), so the same service answers it.
  registerRoute(app, deps, r.clientList, async ({ principal, query }) => blocked.listUserBlocked(deps, principal, query));
  registerRoute(app, deps, r.clientRemove, async ({ principal, body }) => ({ data: await blocked.unblockUser(deps, principal, body.blocks) }));
  registerRoute(app, deps, r.clientRemoveAll, async ({ principal, body }) => ({ data: await blocked.unblockAllSites(deps, principal, body) }));
}
