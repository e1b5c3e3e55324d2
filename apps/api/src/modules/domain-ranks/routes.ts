import { domainRankRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { domainRanks } from './service';

export function domainRanksRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.user, async ({ principal, query }) => domainRanks(deps, principal, query));
  registerRoute(app, deps, r.client, async ({ principal, query }) => domainRanks(deps, principal, query));
}
