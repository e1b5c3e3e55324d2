import { clientDomainRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as domains from './service';

export function clientDomainsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.domains, async ({ deps, principal, query }) => domains.listDomains(deps, principal, query), { kept: true });
  registerRoute(app, deps, r.meta, async ({ deps, principal }) => ({ data: await domains.metaDomains(deps, principal) }), { kept: true });
  registerRoute(app, deps, r.tags, async ({ deps, principal }) => ({ data: await domains.domainTags(deps, principal) }), { kept: true });
}
