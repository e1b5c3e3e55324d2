import { z } from 'zod';
import * as s from '../schemas/site-modules';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Site modules';
const view = 'sites.view';
const edit = 'sites.edit';
const base = 'user/site/{siteId}';

/** Proxy rewrite and token auth (signed URLs) modules of a site. */
export const siteModuleOriginRoutes = {
  proxyRewrites: defineRoute({ id: 'user.site.module.proxyRewrites', method: 'GET', path: `${base}/module/proxyRewrites`, tier, permission: view, tag,
    summary: "The site's proxy-rewrite modules", params: s.siteParams, query: s.modulesQuery, response: paged(s.moduleItem) }),
  createProxyRewrite: defineRoute({ id: 'user.site.module.proxyRewrites.create', method: 'POST', path: `${base}/module/proxyRewrites`, tier, permission: edit, tag,
    summary: 'Create a proxy-rewrite module', params: s.siteParams, body: s.createBody, response: envelope(s.moduleItem) }),
  renameProxyRewrite: defineRoute({ id: 'user.site.module.proxyRewrite.update', method: 'PUT', path: `${base}/module/proxyRewrite`, tier, permission: edit, tag,
    summary: 'Rename a proxy-rewrite module', params: s.siteParams, body: s.renameBody, response: envelope(s.moduleItem) }),
  removeProxyRewrites: defineRoute({ id: 'user.site.module.proxyRewrites.remove', method: 'DELETE', path: `${base}/module/proxyRewrites`, tier, permission: edit, tag,
    summary: 'Remove proxy-rewrite modules that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  rewriteRules: defineRoute({ id: 'user.site.module.proxyRewrite.rules', method: 'GET', path: `${base}/module/proxyRewrite/{moduleId}/rules`, tier, permission: view, tag,
    summary: 'The rewrite rules of a module, in the order the edge tries them', params: s.moduleParams, response: envelope(z.array(s.rewriteItem)) }),
  addRewriteRule: defineRoute({ id: 'user.site.module.proxyRewrite.rules.create', method: 'POST', path: `${base}/module/proxyRewrite/{moduleId}/rules`, tier, permission: edit, tag,
    summary: 'Add a rule: a path prefix or regex rewritten to a new path (and optionally Host) for the origin', params: s.moduleParams, body: s.rewriteBody, response: envelope(s.rewriteItem) }),
  updateRewriteRule: defineRoute({ id: 'user.site.module.proxyRewrite.rules.update', method: 'PUT', path: `${base}/module/proxyRewrite/{moduleId}/rules`, tier, permission: edit, tag,
    summary: 'Change a rewrite rule', params: s.moduleParams, body: s.updateRewriteBody, response: envelope(s.rewriteItem) }),
  removeRewriteRules: defineRoute({ id: 'user.site.module.proxyRewrite.rules.remove', method: 'DELETE', path: `${base}/module/proxyRewrite/{moduleId}/rules`, tier, permission: edit, tag,
    summary: 'Remove rewrite rules', params: s.moduleParams, body: s.idsBody, response: done }),
  assignProxyRewrite: defineRoute({ id: 'user.site.domains.module.proxyRewrite', method: 'PUT', path: `${base}/domains/module/proxyRewrite`, tier, permission: edit, tag,
    summary: 'Assign a proxy-rewrite module to domains (moduleID 0 unassigns)', params: s.siteParams, body: s.assignBody, response: done }),

  tokenAuths: defineRoute({ id: 'user.site.module.tokenAuths', method: 'GET', path: `${base}/module/tokenAuths`, tier, permission: view, tag,
    summary: "The site's token-auth (signed URL) modules; keys are never answered", params: s.siteParams, query: s.modulesQuery, response: paged(s.tokenAuthItem) }),
  createTokenAuth: defineRoute({ id: 'user.site.module.tokenAuth.create', method: 'POST', path: `${base}/module/tokenAuth`, tier, permission: edit, tag,
    summary: 'Create a token-auth module; without a custom key one is generated and answered this once', params: s.siteParams, body: s.createTokenAuthBody, response: envelope(s.tokenAuthSaved) }),
  updateTokenAuth: defineRoute({ id: 'user.site.module.tokenAuth.update', method: 'PUT', path: `${base}/module/tokenAuth`, tier, permission: edit, tag,
    summary: 'Change name, scope, expiry, or replace the key', params: s.siteParams, body: s.updateTokenAuthBody, response: envelope(s.tokenAuthSaved) }),
  removeTokenAuths: defineRoute({ id: 'user.site.module.tokenAuths.remove', method: 'DELETE', path: `${base}/module/tokenAuths`, tier, permission: edit, tag,
    summary: 'Remove token-auth modules that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  tokenPaths: defineRoute({ id: 'user.site.module.tokenAuth.auths', method: 'GET', path: `${base}/module/tokenAuth/{moduleId}/auths`, tier, permission: view, tag,
    summary: 'The path prefixes a paths-scoped module protects', params: s.moduleParams, response: envelope(z.array(s.tokenPathItem)) }),
  addTokenPaths: defineRoute({ id: 'user.site.module.tokenAuth.auths.create', method: 'POST', path: `${base}/module/tokenAuth/{moduleId}/auths`, tier, permission: edit, tag,
    summary: 'Add protected path prefixes, one per line', params: s.moduleParams, body: s.tokenPathsBody, response: envelope(z.array(s.tokenPathItem)) }),
  removeTokenPaths: defineRoute({ id: 'user.site.module.tokenAuth.auths.remove', method: 'DELETE', path: `${base}/module/tokenAuth/{moduleId}/auths`, tier, permission: edit, tag,
    summary: 'Remove protected path prefixes', params: s.moduleParams, body: s.idsBody, response: done }),
  sign: defineRoute({ id: 'user.site.module.tokenAuth.sign', method: 'POST', path: `${base}/module/tokenAuth/{moduleId}/sign`, tier, permission: view, tag, readOnly: true,
    summary: 'Sign a path: answers ?expires=<unix seconds>&sign=<hex HMAC-SHA1(key, path + ":" + expires)>', params: s.moduleParams, body: s.signBody, response: envelope(s.signResult) }),
  assignTokenAuth: defineRoute({ id: 'user.site.domains.module.tokenAuth', method: 'PUT', path: `${base}/domains/module/tokenAuth`, tier, permission: edit, tag,
    summary: 'Assign a token-auth module to domains (moduleID 0 unassigns)', params: s.siteParams, body: s.assignBody, response: done }),
} as const;
