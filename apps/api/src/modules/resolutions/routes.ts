import { infraRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { listResolutions, refreshStale } from './service';

const SWEEP_MS = 10_000;

export function resolutionsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.resolutions, async ({ principal, query }) => listResolutions(deps, principal, query));
  deps.scheduler.every({ name: 'resolution-sweep', everyMs: SWEEP_MS, run: () => refreshStale(deps) });
}
