import { domainRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';
import { ownershipOf } from './ownership';
import * as domains from './service';
import { domainSettingsRoutes } from './settings-routes';

const ok = { data: { ok: true } };

export function domainsRoutes(app: FastifyInstance, deps: AppDeps) {
  domainSettingsRoutes(app, deps);
  registerRoute(app, deps, r.ownership, async ({ principal, query }) => {
    const account = await findAccount(deps.db, principal.accountId);
    if (!account) throw notFound('account');
    return { data: await ownershipOf(deps, { ownerId: (await tenantRootId(deps, account)) ?? account.id, name: query.domain }) };
  });
  registerRoute(app, deps, r.domains, async ({ deps, principal, params, query }) => domains.listDomains(deps, principal, params.siteId, query), { kept: true });
  registerRoute(app, deps, r.createDomains, async ({ principal, params, body }) => ({ data: await domains.createDomains(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateDomain, async ({ principal, params, body }) => ({ data: await domains.updateDomain(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeDomains, async ({ principal, params, body }) => {
    await domains.removeDomains(deps, principal, params.siteId, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.upstreams, async ({ deps, principal, params, query }) => domains.listUpstreams(deps, principal, params.siteId, params.domainId, query), { kept: true });
  registerRoute(app, deps, r.addUpstreams, async ({ principal, params, body }) => ({
    data: await domains.addUpstreams(deps, principal, params.siteId, params.domainId, body.upstreams),
  }));
  registerRoute(app, deps, r.updateUpstream, async ({ principal, params, body }) => ({
    data: await domains.updateUpstream(deps, principal, params.siteId, params.domainId, body),
  }));
  registerRoute(app, deps, r.removeUpstreams, async ({ principal, params, body }) => {
    await domains.removeUpstreams(deps, principal, params.siteId, params.domainId, body.ids);
    return ok;
  });
}
