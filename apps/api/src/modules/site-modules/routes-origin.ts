import { siteModuleOriginRoutes as r, siteModuleWafRoutes as w } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as core from './core';
import * as rewrite from './proxy-rewrite';
import * as token from './token-auth';
import * as waf from './waf';

const ok = { data: { ok: true } };

export function siteModuleOriginRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.proxyRewrites, async ({ principal, params, query }) => core.listModules(deps, principal, { siteId: params.siteId, kind: 'proxyRewrite', query }));
  registerRoute(app, deps, r.createProxyRewrite, async ({ principal, params, body }) => ({
    data: await core.saveNamedModule(deps, principal, { siteId: params.siteId, kind: 'proxyRewrite', name: body.name }),
  }));
  registerRoute(app, deps, r.renameProxyRewrite, async ({ principal, params, body }) => ({
    data: await core.saveNamedModule(deps, principal, { siteId: params.siteId, kind: 'proxyRewrite', ...body }),
  }));
  registerRoute(app, deps, r.removeProxyRewrites, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'proxyRewrite', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.rewriteRules, async ({ principal, params }) => ({ data: await rewrite.listRules(deps, principal, params) }));
  registerRoute(app, deps, r.addRewriteRule, async ({ principal, params, body }) => ({ data: await rewrite.saveRule(deps, principal, { ...params, rule: body }) }));
  registerRoute(app, deps, r.updateRewriteRule, async ({ principal, params, body }) => ({ data: await rewrite.saveRule(deps, principal, { ...params, rule: body }) }));
  registerRoute(app, deps, r.removeRewriteRules, async ({ principal, params, body }) => {
    await core.removeItems(deps, principal, { ...params, kind: 'proxyRewrite', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.assignProxyRewrite, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'proxyRewrite', domainIds: body.domainIDs, moduleId: body.moduleID });
    return ok;
  });

  registerRoute(app, deps, r.tokenAuths, async ({ principal, params, query }) => token.listTokenAuths(deps, principal, { siteId: params.siteId, query }));
  registerRoute(app, deps, r.createTokenAuth, async ({ principal, params, body }) => ({ data: await token.saveTokenAuth(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, r.updateTokenAuth, async ({ principal, params, body }) => ({ data: await token.saveTokenAuth(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, r.removeTokenAuths, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'tokenAuth', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.tokenPaths, async ({ principal, params }) => ({ data: await token.listPaths(deps, principal, params) }));
  registerRoute(app, deps, r.addTokenPaths, async ({ principal, params, body }) => ({ data: await token.addPaths(deps, principal, { ...params, items: body.items }) }));
  registerRoute(app, deps, r.removeTokenPaths, async ({ principal, params, body }) => {
    await core.removeItems(deps, principal, { ...params, kind: 'tokenAuth', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.sign, async ({ principal, params, body }) => ({ data: await token.sign(deps, principal, { ...params, ...body }) }));
  registerRoute(app, deps, r.assignTokenAuth, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'tokenAuth', domainIds: body.domainIDs, moduleId: body.moduleID });
    return ok;
  });
}

export function siteModuleWafRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, w.defaultRules, async () => ({ data: waf.defaultRules() }));
  registerRoute(app, deps, w.wafs, async ({ principal, params, query }) => waf.listWafs(deps, principal, { siteId: params.siteId, query }));
  registerRoute(app, deps, w.createWaf, async ({ principal, params, body }) => ({ data: await waf.saveWaf(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, w.updateWaf, async ({ principal, params, body }) => ({ data: await waf.saveWaf(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, w.removeWafs, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'waf', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, w.assignWaf, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'waf', domainIds: body.domainIDs, moduleId: body.moduleID });
    return ok;
  });
}
