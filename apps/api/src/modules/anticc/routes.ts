import { anticcRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as cc from './service';

export function anticcRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.list, async ({ principal, params, query }) => cc.listAnticcs(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.create, async ({ principal, params, body }) => ({ data: await cc.createAnticc(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.update, async ({ principal, params, body }) => ({ data: await cc.updateAnticc(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.enable, async ({ principal, params, body }) => {
    await cc.enableAnticcs(deps, principal, params.siteId, body.ids, body.enabled);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.remove, async ({ principal, params, body }) => {
    await cc.removeAnticcs(deps, principal, params.siteId, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.freqs, async ({ principal, params }) => ({ data: await cc.anticcFreqs(deps, principal, params.siteId) }));
}
