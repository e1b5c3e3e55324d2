import { basicAuthRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as auth from './service';

const ok = { data: { ok: true } };

export function basicAuthRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.settingExists, async ({ principal, params }) => ({ data: await auth.settingExists(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.metaGroups, async ({ principal, params }) => ({ data: await auth.metaGroups(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.rules, async ({ principal, params, query }) => auth.listRules(deps, principal, { siteId: params.siteId, query }));
  registerRoute(app, deps, r.createRule, async ({ principal, params, body }) => ({ data: await auth.saveRule(deps, principal, { siteId: params.siteId, rule: body }) }));
  registerRoute(app, deps, r.updateRule, async ({ principal, params, body }) => ({ data: await auth.saveRule(deps, principal, { siteId: params.siteId, rule: body }) }));
  registerRoute(app, deps, r.removeRules, async ({ principal, params, body }) => {
    await auth.removeRules(deps, principal, { siteId: params.siteId, ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.groups, async ({ principal, params, query }) => auth.listGroups(deps, principal, { siteId: params.siteId, query }));
  registerRoute(app, deps, r.createGroup, async ({ principal, params, body }) => ({ data: await auth.saveGroup(deps, principal, { siteId: params.siteId, ...body }) }));
  registerRoute(app, deps, r.updateGroup, async ({ principal, params, body }) => ({ data: await auth.saveGroup(deps, principal, { siteId: params.siteId, ...body }) }));
  registerRoute(app, deps, r.removeGroups, async ({ principal, params, body }) => {
    await auth.removeGroups(deps, principal, { siteId: params.siteId, ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.users, async ({ principal, params }) => ({ data: await auth.listUsers(deps, principal, params) }));
  registerRoute(app, deps, r.createUser, async ({ principal, params, body }) => ({ data: await auth.saveUser(deps, principal, { ...params, ...body }) }));
  registerRoute(app, deps, r.updateUser, async ({ principal, params, body }) => ({ data: await auth.saveUser(deps, principal, { ...params, ...body }) }));
  registerRoute(app, deps, r.removeUsers, async ({ principal, params, body }) => {
    await auth.removeUsers(deps, principal, { ...params, ids: body.ids });
    return ok;
  });
}
