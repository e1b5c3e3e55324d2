import { securityRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { securityCards, securityReport, securityTops } from './service';

export function securityModule(app: FastifyInstance, deps: AppDeps) {
  for (const r of [securityRoutes.user, securityRoutes.client]) {
    registerRoute(app, deps, r.cards, async ({ principal, body }) => ({ data: await securityCards(deps, principal, body) }));
    registerRoute(app, deps, r.tops, async ({ principal, body }) => ({ data: await securityTops(deps, principal, 'tops', body) }));
    registerRoute(app, deps, r.areaTops, async ({ principal, body }) => ({ data: await securityTops(deps, principal, 'areaTops', body) }));
    registerRoute(app, deps, r.blacklist, async ({ principal, body }) => ({ data: await securityReport(deps, principal, 'blacklist', body) }));
    registerRoute(app, deps, r.waf, async ({ principal, body }) => ({ data: await securityReport(deps, principal, 'waf', body) }));
  }
}
