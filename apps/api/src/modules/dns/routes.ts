import { dnsSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as cnames from './cnames';
import { getDnsSetting, listDnsTasks, putDnsSetting, recoverDns, repairDns, testDnsSetting } from './service';
import { registerDnsSync } from './sync';

export function dnsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.get, async ({ principal }) => ({ data: await getDnsSetting(deps, principal) }));
  registerRoute(app, deps, r.put, async ({ principal, body }) => ({ data: await putDnsSetting(deps, principal, body) }));
  registerRoute(app, deps, r.test, async ({ principal, body }) => ({ data: await testDnsSetting(deps, principal, body) }));
  registerRoute(app, deps, r.unprocessed, async ({ principal, query }) => listDnsTasks(deps, principal, query));
  registerRoute(app, deps, r.repair, async ({ principal }) => ({ data: await repairDns(deps, principal) }));
  registerRoute(app, deps, r.recovery, async ({ principal }) => ({ data: await recoverDns(deps, principal) }));
  registerRoute(app, deps, r.cnames, async ({ principal, query }) => cnames.listCnames(deps, principal, query));
  registerRoute(app, deps, r.removeCnames, async ({ principal, body }) => ({ data: await cnames.removeCnames(deps, principal, body.ids) }));
  registerRoute(app, deps, r.createCname, async ({ principal, body }) => ({ data: await cnames.createCname(deps, principal, body) }));
  registerRoute(app, deps, r.updateCname, async ({ principal, body }) => ({ data: await cnames.updateCname(deps, principal, body) }));
  registerRoute(app, deps, r.cnameMeta, async ({ principal }) => ({ data: await cnames.cnameMeta(deps, principal) }));
  registerDnsSync(deps);
}
