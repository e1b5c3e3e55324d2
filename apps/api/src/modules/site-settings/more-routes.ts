import { siteSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as tasks from './cache-tasks';
import * as dns from './dns-records';
import * as handlers from './option-handlers';
import { setPorts, zonePorts } from './options';
import * as rates from './rates';

/** Rate rules, HSTS, body size, cache key, ports, DNS records and warm-cache tasks. */
export function moreSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.settingExists, async ({ principal, params }) => ({ data: await handlers.settingExists(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.purgeCacheRules, async ({ principal, params, body }) => ({ data: await tasks.purgeCacheRules(deps, principal, params.siteId, body.ids) }));
  registerRoute(app, deps, r.cacheSettings, async ({ principal, params, body }) => ({ data: await handlers.setCacheSettings(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.createRate, async ({ principal, params, body }) => ({ data: await rates.addRate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateRate, async ({ principal, params, body }) => ({ data: await rates.updateRate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeRates, async ({ principal, params, body }) => ({ data: await rates.removeRates(deps, principal, params.siteId, body.ids) }));
  registerRoute(app, deps, r.hsts, async ({ principal, params, body }) => ({ data: await handlers.setHsts(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.bodySize, async ({ principal, params, body }) => ({
    data: await handlers.setBodySize(deps, principal, params.siteId, body.clientMaxBodySize),
  }));
  registerRoute(app, deps, r.zonePorts, async ({ deps, principal, params }) => ({ data: await zonePorts(deps, principal, params.siteId) }), { kept: true });
  registerRoute(app, deps, r.addPorts, async ({ principal, params, body }) => ({ data: await setPorts(deps, principal, params.siteId, { ...body, add: true }) }));
  registerRoute(app, deps, r.removePorts, async ({ principal, params, body }) => ({ data: await setPorts(deps, principal, params.siteId, { ...body, add: false }) }));
  registerRoute(app, deps, r.dnsRecords, async ({ principal, params, query }) => dns.listDnsRecords(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.createDnsRecord, async ({ principal, params, body }) => ({ data: await dns.addDnsRecord(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateDnsRecord, async ({ principal, params, body }) => ({ data: await dns.updateDnsRecord(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeDnsRecords, async ({ principal, params, body }) => {
    await dns.removeDnsRecords(deps, principal, params.siteId, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.dnsRecordDomains, async ({ principal, params }) => ({ data: await dns.dnsRecordDomains(deps, principal, params.siteId, params.dnsID) }));
  registerRoute(app, deps, r.cacheTasks, async ({ principal, params, query }) => tasks.listCacheTasks(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.createCacheTask, async ({ principal, params, body }) => ({ data: await tasks.createCacheTask(deps, principal, params.siteId, body) }));
}
