import { siteActionRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { sitesRepo } from '../sites/repo';
import { siteTags } from '../sites/service';
import * as actions from './service';

const ok = { data: { ok: true } };
/** How often sites whose expiry passed are marked expired (and stop being served). */
const EXPIRY_SWEEP_MS = 60_000;

export function siteActionsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.assignUser, async ({ principal, body }) => (await actions.assignUser(deps, principal, body), ok));
  registerRoute(app, deps, r.changeProduct, async ({ principal, body }) => (await actions.changeProduct(deps, principal, body), ok));
  registerRoute(app, deps, r.refreshProduct, async ({ principal, body }) => (await actions.refreshProduct(deps, principal, body.ids), ok));
  registerRoute(app, deps, r.limitations, async ({ principal, body }) => (await actions.setLimitations(deps, principal, body), ok));
  registerRoute(app, deps, r.expired, async ({ principal, body }) => (await actions.setExpiry(deps, principal, body), ok));
  registerRoute(app, deps, r.forceBackup, async ({ principal, body }) => (await actions.forceBackup(deps, principal, body), ok));
  registerRoute(app, deps, r.setTags, async ({ principal, body }) => (await actions.setTags(deps, principal, body), ok));
  registerRoute(app, deps, r.site, async ({ principal, params }) => ({ data: await sitesRepo(deps, principal).get(params.siteId) }));
  registerRoute(app, deps, r.tags, async ({ principal }) => ({ data: await siteTags(deps, principal) }));
  registerRoute(app, deps, r.clearCache, async ({ principal, body }) => ({ data: await actions.clearCache(deps, principal, body.ids) }));

  deps.scheduler.every({ name: 'site-expiry', everyMs: EXPIRY_SWEEP_MS, run: () => actions.expireDueSites(deps) });
}
