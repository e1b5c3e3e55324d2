import { infraRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as zones from './service';

export function zonesRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = infraRoutes;
  registerRoute(app, deps, r.zones, async ({ principal, query }) => zones.listZones(deps, principal, query));
  registerRoute(app, deps, r.metaZones, async ({ principal }) => ({ data: await zones.metaZones(deps, principal) }));
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
  registerRoute(app, deps, r.zoneSettings, async ({ principal, params }) => ({ data: await zones.zoneSettings(deps, principal, params.zoneID) }));
  registerRoute(app, deps, r.zonePorts, async ({ principal, params, body }) => ({ data: await zones.setZoneSetting(deps, principal, params.zoneID, 'ports', body) }));
  registerRoute(app, deps, r.nginxWorker, async ({ principal, params, body }) => ({
    data: await zones.setZoneSetting(deps, principal, params.zoneID, 'nginxWorker', body),
  }));
  registerRoute(app, deps, r.nginxHttp, async ({ principal, params, body }) => ({
    data: await zones.setZoneSetting(deps, principal, params.zoneID, 'nginxHttp', body),
  }));
}
