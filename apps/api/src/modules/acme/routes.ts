import { autoCertificateRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { dnsProvider } from '../dns/provider';
import { runQueue, CLAIM_MS } from './queue';
import * as service from './service';
import * as settings from './settings';

export function acmeModule(app: FastifyInstance, deps: AppDeps) {
  deps.scheduler.every({
    name: service.ACME_JOB,
    everyMs: deps.config.acmeQueueSeconds * 1000,
    leaseMs: CLAIM_MS,
    run: () => runQueue(deps, { dnsOf: (clientId) => dnsProvider(deps, { clientId }) }),
  });
  registerRoute(app, deps, r.list, async ({ principal, query }) => service.listAutoCertificates(deps, principal, query));
  registerRoute(app, deps, r.renew, async ({ principal, body }) => ({ data: await service.renewAutoCertificates(deps, principal, body.ids) }));
  registerRoute(app, deps, r.site, async ({ principal, params }) => ({ data: await service.siteAutoCertificates(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.provider, async ({ principal }) => ({ data: await settings.getProvider(deps, principal) }));
  registerRoute(app, deps, r.setProvider, async ({ principal, body }) => ({ data: await settings.setProvider(deps, principal, body) }));
  registerRoute(app, deps, r.googleTrust, async ({ principal }) => ({ data: await settings.getGoogleTrust(deps, principal) }));
  registerRoute(app, deps, r.setGoogleTrust, async ({ principal, body }) => ({ data: await settings.setGoogleTrust(deps, principal, body) }));
}
