import { FRONTEND_VERSION, systemRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { pingDatabase } from './repo';

export function systemRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, systemRoutes.health, async () => {
    await pingDatabase(deps.db);
    return { data: { status: 'ok' as const, version: FRONTEND_VERSION, database: deps.dialect, time: new Date().toISOString() } };
  });
  // {tier}/logo is answered by the branding module: the custom branding, or the defaults.
}
