import { agentRoutes, Codes, nodeUpgradeRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { registerNodeRoute, registerRoute } from '../../http/route';
import { appendStep } from './repo';
import { failStaleUpgrades, latestVersion, listUpgradeNodes, UPGRADE_TIMEOUT_JOB, upgradeLog, upgradeNodes } from './service';

export function nodeUpgradesRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.latestVersion, async () => ({ data: latestVersion() }));
  registerRoute(app, deps, r.nodes, async ({ principal, query }) => listUpgradeNodes(deps, principal, query));
  registerRoute(app, deps, r.upgrade, async ({ principal, body }) => ({ data: await upgradeNodes(deps, principal, body.ids) }));
  registerRoute(app, deps, r.logs, async ({ principal, params }) => ({ data: await upgradeLog(deps, principal, params.nodeID) }));

  deps.scheduler.every({ name: UPGRADE_TIMEOUT_JOB, everyMs: 60_000, run: () => failStaleUpgrades(deps) });

  // The agent's side: each step of an upgrade of its own node.
  registerNodeRoute(app, deps, agentRoutes.upgradeLog, async ({ node, body }) => {
    if (!(await appendStep(deps.db, { nodeId: node.id, ...body }))) throw new ApiError(Codes.Parameter, { status: 404, extra: 'upgrade not found' });
    return { ok: true };
  });
}
