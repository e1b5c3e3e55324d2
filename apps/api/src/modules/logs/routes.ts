import { logRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { accessLogs, wafLogs } from './service';

export function logsModule(app: FastifyInstance, deps: AppDeps) {
  for (const r of [logRoutes.user, logRoutes.client]) {
    registerRoute(app, deps, r.access, async ({ principal, body }) => accessLogs(deps, principal, body));
    registerRoute(app, deps, r.waf, async ({ principal, body }) => wafLogs(deps, principal, body));
  }
}
