import { virtualNodeRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as vn from './service';

export function virtualNodesRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.list, async ({ principal, params, query }) => vn.listVirtualNodes(deps, principal, params.zoneID, query));
  registerRoute(app, deps, r.create, async ({ principal, params, body }) => ({ data: await vn.createVirtualNode(deps, principal, params.zoneID, body) }));
  registerRoute(app, deps, r.update, async ({ principal, params, body }) => ({ data: await vn.updateVirtualNode(deps, principal, params.zoneID, body) }));
  registerRoute(app, deps, r.remove, async ({ principal, params, body }) => {
    await vn.removeVirtualNode(deps, principal, params.zoneID, body.id);
    return { data: { ok: true } };
  });
}
