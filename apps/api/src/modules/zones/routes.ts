import { infraRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as zones from './service';
import type { ZoneSettings } from './defaults';
import * as settings from './settings';

export function zonesRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = infraRoutes;
  registerRoute(app, deps, r.zones, async ({ deps, principal, query }) => zones.listZones(deps, principal, query), { kept: true });
  registerRoute(app, deps, r.metaZones, async ({ deps, principal }) => ({ data: await zones.metaZones(deps, principal) }), { kept: true });
  registerRoute(app, deps, r.createZone, async ({ principal, body }) => ({ data: await zones.createZone(deps, principal, body) }));
  registerRoute(app, deps, r.updateZone, async ({ principal, body }) => ({ data: await zones.updateZone(deps, principal, body) }));
  registerRoute(app, deps, r.removeZone, async ({ principal, body }) => {
    await zones.removeZone(deps, principal, body.id);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.subClientZones, async ({ principal, params }) => ({ data: await zones.assignedZones(deps, principal, params.clientId) }));
  registerRoute(app, deps, r.assignZones, async ({ principal, params, body }) => ({
    data: await zones.assignZones(deps, principal, params.clientId, body.zoneIDs),
  }));
  registerRoute(app, deps, r.zoneSettings, async ({ principal, params }) => ({ data: await settings.zoneSettings(deps, principal, params.zoneID) }));
  const set = <K extends Parameters<typeof settings.setZoneSetting>[3]>(key: K) =>
    async ({ principal, params, body }: { principal: Parameters<typeof settings.setZoneSetting>[1]; params: { zoneID: number }; body: ZoneSettings[K] }) => ({
      data: await settings.setZoneSetting(deps, principal, params.zoneID, key, body),
    });
  registerRoute(app, deps, r.zonePorts, set('ports'));
  registerRoute(app, deps, r.nginxWorker, set('nginxWorker'));
  registerRoute(app, deps, r.nginxHttp, set('nginxHttp'));
  registerRoute(app, deps, r.nginxStream, set('nginxStream'));
  registerRoute(app, deps, r.nginxCustom, set('nginxCustom'));
  registerRoute(app, deps, r.zoneFirewall, set('firewall'));
  registerRoute(app, deps, r.zoneIpset, set('ipset'));
  registerRoute(app, deps, r.zoneHttp2, set('http2'));
  registerRoute(app, deps, r.zoneHttp3, set('http3'));
  registerRoute(app, deps, r.forceSSLRedirectCode, set('forceSSLRedirectCode'));
  registerRoute(app, deps, r.zoneAnticc, set('anticc'));
  registerRoute(app, deps, r.zoneResource, set('resource'));
  registerRoute(app, deps, r.invalidDomainLimitCount, set('invalidDomainLimitCount'));
  registerRoute(app, deps, r.tlsLimitCount, set('tlsLimitCount'));
  registerRoute(app, deps, r.openZonePort, async ({ principal, params, body }) => ({ data: await settings.changeZonePort(deps, principal, params.zoneID, body, true) }));
  registerRoute(app, deps, r.closeZonePort, async ({ principal, params, body }) => ({ data: await settings.changeZonePort(deps, principal, params.zoneID, body, false) }));
  registerRoute(app, deps, r.flushIpset, async ({ principal, params }) => ({ data: await settings.flushIpsets(deps, principal, params.zoneID) }));
  registerRoute(app, deps, r.preheatCaches, async ({ principal, params, body }) => ({ data: await settings.preheatCaches(deps, principal, params.zoneID, body) }));
  registerRoute(app, deps, r.preheatResult, async ({ principal, params }) => ({ data: await settings.preheatResult(deps, principal, params.zoneID) }));
}
