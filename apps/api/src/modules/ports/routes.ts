import { l4PortRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { registerUsageCounter } from '../licenses/limits';
import { clientPortCount } from './repo';
import * as ports from './service';

const ok = { data: { ok: true } };

/** A client's layer-4 ports, for the license's port limit. */
const registerPortCounter = () =>
  registerUsageCounter('port', (deps, clientId) => clientPortCount(deps.db, clientId));

export function portsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerPortCounter();
  registerRoute(app, deps, r.ports, async ({ principal, params, query }) => ports.listPorts(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.updatePort, async ({ principal, params, body }) => ({ data: await ports.updatePort(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.createPorts, async ({ principal, params, body }) => ({ data: await ports.createPorts(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.batchCreate, async ({ principal, params, body }) => ({ data: await ports.batchCreate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removePorts, async ({ principal, params, body }) => {
    await ports.removePorts(deps, principal, params.siteId, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.upstreams, async ({ principal, params, query }) => ports.listUpstreams(deps, principal, params.siteId, params.portId, query));
  registerRoute(app, deps, r.addUpstreams, async ({ principal, params, body }) => ({
    data: await ports.addUpstreams(deps, principal, params.siteId, params.portId, body.upstreams),
  }));
  registerRoute(app, deps, r.removeUpstreams, async ({ principal, params, body }) => {
    await ports.removeUpstreams(deps, principal, params.siteId, params.portId, body.ids);
    return ok;
  });
  registerRoute(app, deps, r.updateUpstream, async ({ principal, params, body }) => ({
    data: await ports.updateUpstream(deps, principal, params.siteId, params.portId, body),
  }));
}
