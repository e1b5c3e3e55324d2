import { infraRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { listResolutions, startResolutionSweep } from './service';

const SWEEP_MS = 10_000;

export function resolutionsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.resolutions, async ({ principal, query }) => listResolutions(deps, principal, query));
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = startResolutionSweep(deps, { everyMs: SWEEP_MS });
  });
  app.addHook('onClose', async () => stop?.());
}
