import { siteModuleRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as access from './access-rules';
import * as core from './core';
import * as cors from './cors';
import * as headers from './custom-headers';
import * as redirects from './url-redirects';
import { siteModuleOriginRoutesPlugin, siteModuleWafRoutesPlugin } from './routes-origin';

const ok = { data: { ok: true } };

export function siteModulesRoutes(app: FastifyInstance, deps: AppDeps) {
  siteModuleOriginRoutesPlugin(app, deps);
  siteModuleWafRoutesPlugin(app, deps);
  registerRoute(app, deps, r.customHeaders, async ({ principal, params, query }) => core.listModules(deps, principal, { siteId: params.siteId, kind: 'customHeader', query }));
  registerRoute(app, deps, r.saveCustomHeader, async ({ principal, params, body }) => ({
    data: await core.saveNamedModule(deps, principal, { siteId: params.siteId, kind: 'customHeader', ...body }),
  }));
  registerRoute(app, deps, r.removeCustomHeaders, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'customHeader', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.headers, async ({ principal, params }) => ({ data: await headers.listHeaders(deps, principal, params) }));
  registerRoute(app, deps, r.saveHeader, async ({ principal, params, body }) => ({ data: await headers.saveHeader(deps, principal, { ...params, header: body }) }));
  registerRoute(app, deps, r.removeHeaders, async ({ principal, params, body }) => {
    await core.removeItems(deps, principal, { ...params, kind: 'customHeader', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.domainHeaders, async ({ principal, params }) => ({ data: await headers.domainHeaders(deps, principal, params) }));
  registerRoute(app, deps, r.assignCustomHeader, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'customHeader', domainIds: body.domainIDs, moduleId: body.moduleID });
    return ok;
  });

  registerRoute(app, deps, r.urlRedirects, async ({ principal, params, query }) => core.listModules(deps, principal, { siteId: params.siteId, kind: 'urlRedirect', query }));
  registerRoute(app, deps, r.createUrlRedirect, async ({ principal, params, body }) => ({
    data: await core.saveNamedModule(deps, principal, { siteId: params.siteId, kind: 'urlRedirect', name: body.name }),
  }));
  registerRoute(app, deps, r.renameUrlRedirect, async ({ principal, params, body }) => ({
    data: await core.saveNamedModule(deps, principal, { siteId: params.siteId, kind: 'urlRedirect', ...body }),
  }));
  registerRoute(app, deps, r.removeUrlRedirects, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'urlRedirect', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.urls, async ({ principal, params, query }) => redirects.listUrls(deps, principal, { ...params, query }));
  registerRoute(app, deps, r.saveUrl, async ({ principal, params, body }) => ({ data: await redirects.saveUrl(deps, principal, { ...params, rule: body }) }));
  registerRoute(app, deps, r.removeUrls, async ({ principal, params, body }) => {
    await core.removeItems(deps, principal, { ...params, kind: 'urlRedirect', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.replaceUrl, async ({ principal, params, body }) => ({ data: await redirects.replaceUrl(deps, principal, { ...params, ...body }) }));
  registerRoute(app, deps, r.assignUrlRedirect, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'urlRedirect', domainIds: body.domainIDs, moduleId: body.moduleID });
    return ok;
  });

  registerRoute(app, deps, r.corses, async ({ principal, params, query }) => cors.listCorses(deps, principal, { siteId: params.siteId, query }));
  registerRoute(app, deps, r.createCors, async ({ principal, params, body }) => ({ data: await cors.saveCors(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, r.updateCors, async ({ principal, params, body }) => ({ data: await cors.saveCors(deps, principal, { siteId: params.siteId, body }) }));
  registerRoute(app, deps, r.removeCorses, async ({ principal, params, body }) => {
    await core.removeModules(deps, principal, { siteId: params.siteId, kind: 'cors', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.corsDomains, async ({ principal, params }) => ({ data: await cors.corsDomains(deps, principal, params) }));
  registerRoute(app, deps, r.assignCors, async ({ principal, params, body }) => {
    await core.assignModule(deps, principal, { siteId: params.siteId, kind: 'cors', domainIds: body.domainIDs, moduleId: body.corsID });
    return ok;
  });
  registerRoute(app, deps, r.exists, async ({ principal, params }) => ({ data: await core.moduleExists(deps, principal, params.siteId) }));

  registerRoute(app, deps, r.antiReferers, async ({ principal, params }) => ({ data: await access.listRules(deps, principal, { ...params, kind: 'referer' }) }));
  registerRoute(app, deps, r.addAntiReferer, async ({ principal, params, body }) => ({ data: await access.addRule(deps, principal, { ...params, kind: 'referer', rule: body }) }));
  registerRoute(app, deps, r.removeAntiReferers, async ({ principal, params, body }) => {
    await access.removeRules(deps, principal, { ...params, kind: 'referer', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.updateAntiReferer, async ({ principal, params, body }) => ({ data: await access.updateRule(deps, principal, { siteId: params.siteId, kind: 'referer', rule: body }) }));
  registerRoute(app, deps, r.antiHeaders, async ({ principal, params }) => ({ data: await access.listRules(deps, principal, { ...params, kind: 'header' }) }));
  registerRoute(app, deps, r.addAntiHeader, async ({ principal, params, body }) => ({ data: await access.addRule(deps, principal, { ...params, kind: 'header', rule: body }) }));
  registerRoute(app, deps, r.removeAntiHeaders, async ({ principal, params, body }) => {
    await access.removeRules(deps, principal, { ...params, kind: 'header', ids: body.ids });
    return ok;
  });
  registerRoute(app, deps, r.updateAntiHeader, async ({ principal, params, body }) => ({ data: await access.updateRule(deps, principal, { siteId: params.siteId, kind: 'header', rule: body }) }));
}
