import { dashboardRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { getDashboard, putDashboard } from './service';

export function dashboardModule(app: FastifyInstance, deps: AppDeps) {
  for (const r of [dashboardRoutes.client, dashboardRoutes.admin]) {
    registerRoute(app, deps, r.get, async ({ principal }) => ({ data: await getDashboard(deps, principal) }));
    registerRoute(app, deps, r.put, async ({ principal, body }) => ({ data: await putDashboard(deps, principal, body) }));
  }
}
