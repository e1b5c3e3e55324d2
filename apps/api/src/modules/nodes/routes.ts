import { infraRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as nodes from './service';
import { nodeInfo } from './node-info';
import { setNodesGeneva, setNodesMonitor } from './node-settings';
import { addSubNode, listSubNodes, removeSubNodes } from './sub-nodes';

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
  registerRoute(app, deps, r.subNodes, async ({ principal, params }) => ({ data: await listSubNodes(deps, principal, params.id) }));
  registerRoute(app, deps, r.addSubNode, async ({ principal, params, body }) => ({ data: await addSubNode(deps, principal, params.id, body) }));
  registerRoute(app, deps, r.removeSubNodes, async ({ principal, params, body }) => {
    await removeSubNodes(deps, principal, params.id, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.nodeMonitor, async ({ principal, body: { ids, ...monitor } }) => {
    await setNodesMonitor(deps, principal, ids, monitor);
    return ok;
  });
  registerRoute(app, deps, r.nodeGeneva, async ({ principal, body: { ids, ...geneva } }) => {
    await setNodesGeneva(deps, principal, ids, geneva);
    return ok;
  });
  registerRoute(app, deps, r.nodeInfo, async ({ principal, params, reply }) => {
    reply.type('text/plain; charset=utf-8');
    return nodeInfo(deps, principal, params.id);
  });
}
