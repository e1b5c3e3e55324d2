import { domainSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { registerUsageCounter } from '../licenses/limits';
import * as batch from './batch';
import { checkCname } from './cname-check';
import { clientAutoSSLCount } from './repo';
import * as settings from './settings';

const ok = { data: { ok: true } };

/** Counts a client's domains with automatic certificates on, for the license's auto-SSL limit. */
const registerAutoSSLCounter = () =>
  registerUsageCounter('autoSSL', (deps, clientId) => clientAutoSSLCount(deps.db, clientId));

export function domainSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerAutoSSLCounter();
  registerRoute(app, deps, r.metaDomains, async ({ deps, principal, params, query }) => ({ data: await batch.metaDomains(deps, principal, params.siteId, query.keyword) }), { kept: true });
  registerRoute(app, deps, r.simpleDomains, async ({ principal, params, body }) => ({ data: await batch.simpleDomains(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeByNames, async ({ principal, params, body }) => {
    await batch.removeByNames(deps, principal, params.siteId, body.names);
    return ok;
  });
  registerRoute(app, deps, r.checkCname, async ({ principal, params, body }) => ({ data: await checkCname(deps, principal, params.siteId, body.ids) }));
  registerRoute(app, deps, r.modifyUpstreamIPs, async ({ principal, params, body }) => ({ data: await batch.modifyUpstreamIPs(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.exportDomains, async ({ principal, params, body, reply }) => {
    reply.type('text/plain; charset=utf-8').header('Content-Disposition', `attachment; filename="domains-site-${params.siteId}.txt"`);
    return batch.exportDomains(deps, principal, params.siteId, body.ids);
  });
  registerRoute(app, deps, r.copyToSite, async ({ principal, params, body }) => ({ data: await batch.copyToSite(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.createFrom, async ({ principal, params, body }) => ({ data: await batch.createFrom(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.batchUpstreams, async ({ principal, params, body }) => {
    await batch.batchUpstreams(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.tags, async ({ deps, principal, params }) => ({ data: await settings.siteDomainTags(deps, principal, params.siteId) }), { kept: true });
  registerRoute(app, deps, r.setTags, async ({ principal, params, body }) => {
    await settings.setDomainTags(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.status, async ({ principal, params, body }) => {
    await settings.setDomainStatus(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.autoSSL, async ({ principal, params, body }) => {
    await settings.setAutoSSL(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.balance, async ({ principal, params, body }) => {
    await settings.setBalance(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.forceSSL, async ({ principal, params, body }) => {
    await settings.setForceSSL(deps, principal, params.siteId, body);
    return ok;
  });
  registerRoute(app, deps, r.settings, async ({ deps, principal, params, query }) => settings.domainSettings(deps, principal, params.siteId, query), { kept: true });
  registerRoute(app, deps, r.scheme, async ({ principal, params, body }) => ({ data: await settings.setScheme(deps, principal, params.siteId, params.domainId, body) }));
}
