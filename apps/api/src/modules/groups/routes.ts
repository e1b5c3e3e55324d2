import { siteRoutes as r, siteSchemas } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as groups from './service';

export function groupsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.dnsLines, async () => ({ data: [...siteSchemas.DNS_LINES] }));
  registerRoute(app, deps, r.groups, async ({ deps, principal, params, query }) => groups.listGroups(deps, principal, params.zoneID, query), { kept: true });
  registerRoute(app, deps, r.metaGroups, async ({ deps, principal, params }) => ({ data: await groups.metaGroups(deps, principal, params.zoneID) }), { kept: true });
  registerRoute(app, deps, r.createGroup, async ({ principal, params, body }) => ({ data: await groups.createGroup(deps, principal, params.zoneID, body) }));
  registerRoute(app, deps, r.updateGroup, async ({ principal, params, body }) => ({ data: await groups.updateGroup(deps, principal, params.zoneID, body) }));
  registerRoute(app, deps, r.removeGroup, async ({ principal, params, body }) => {
    await groups.removeGroup(deps, principal, params.zoneID, body.id);
    return { data: { ok: true } };
  });
}
