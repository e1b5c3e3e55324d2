import { infraRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as nodes from './service';

const ok = { data: { ok: true } };

export function nodesRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.nodes, async ({ principal, query }) => nodes.listNodes(deps, principal, query));
  registerRoute(app, deps, r.createNode, async ({ principal, body }) => ({ data: await nodes.createNode(deps, principal, body) }));
  registerRoute(app, deps, r.updateNode, async ({ principal, body }) => ({ data: await nodes.updateNode(deps, principal, body) }));
  registerRoute(app, deps, r.removeNodes, async ({ principal, body }) => {
    await nodes.removeNodes(deps, principal, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.initialize, async ({ principal, body }) => ({ data: await nodes.initializeNode(deps, principal, body.id) }));
  registerRoute(app, deps, r.deinitialize, async ({ principal, body }) => {
    await nodes.deinitializeNodes(deps, principal, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.nodeStatus, async ({ principal, body }) => {
    await nodes.setNodesEnabled(deps, principal, body.ids, body.enabled);
    return ok;
  });
  registerRoute(app, deps, r.moveNodes, async ({ principal, body }) => {
    await nodes.moveNodes(deps, principal, body.ids, body.zoneID);
    return ok;
  });
  registerRoute(app, deps, r.nodeMemo, async ({ principal, body }) => {
    await nodes.setNodesMemo(deps, principal, body.ids, body.memo);
    return ok;
  });
  registerRoute(app, deps, r.nodeSystem, async ({ principal, params }) => ({ data: await nodes.nodeSystem(deps, principal, params.id) }));
  registerRoute(app, deps, r.nodeCommand, async ({ principal, params, body }) => ({ data: await nodes.queueCommand(deps, principal, params.id, body) }));
  registerRoute(app, deps, r.nodeCommands, async ({ principal, params }) => ({ data: await nodes.listCommands(deps, principal, params.id) }));
}
