import { wafAclRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as acl from './service';

const ok = { data: { ok: true } };

export function wafAclRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.modules, async ({ principal, params, query }) => acl.listModules(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.createModules, async ({ principal, params, body }) => ({ data: await acl.createModules(deps, principal, params.siteId, body.modules) }));
  registerRoute(app, deps, r.updateModule, async ({ principal, params, body }) => ({ data: await acl.updateModule(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeModules, async ({ principal, params, body }) => (await acl.removeModules(deps, principal, params.siteId, body.ids), ok));
  registerRoute(app, deps, r.rules, async ({ principal, params, query }) => acl.listRules(deps, principal, params.siteId, params.moduleID, query));
  registerRoute(app, deps, r.createRule, async ({ principal, params, body }) => ({ data: await acl.createRule(deps, principal, params.siteId, params.moduleID, body) }));
  registerRoute(app, deps, r.updateRule, async ({ principal, params, body }) => ({ data: await acl.updateRule(deps, principal, params.siteId, params.moduleID, body) }));
  registerRoute(app, deps, r.removeRules, async ({ principal, params, body }) => (await acl.removeRules(deps, principal, params.siteId, params.moduleID, body.ids), ok));
  registerRoute(app, deps, r.enableRules, async ({ principal, params, body }) =>
    (await acl.enableRules(deps, principal, params.siteId, params.moduleID, body.ids, body.enabled), ok));
  registerRoute(app, deps, r.assign, async ({ principal, params, body }) => (await acl.assignModule(deps, principal, params.siteId, body), ok));
  registerRoute(app, deps, r.exists, async ({ principal, params }) => ({ data: await acl.advancedExists(deps, principal, params.siteId) }));
}
