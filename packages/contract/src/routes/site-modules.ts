import { z } from 'zod';
import * as s from '../schemas/site-modules';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Site modules';
const view = 'sites.view';
const edit = 'sites.edit';
const base = 'user/site/{siteId}';

const assign = (kind: 'customHeader' | 'urlRedirect') =>
  defineRoute({ id: `user.site.domains.module.${kind}`, method: 'PUT', path: `${base}/domains/module/${kind}`, tier, permission: edit, tag,
    summary: `Assign a ${kind} module to domains (moduleID 0 unassigns)`, params: s.siteParams, body: s.assignBody, response: done });

export const siteModuleRoutes = {
  customHeaders: defineRoute({ id: 'user.site.customHeaders', method: 'GET', path: `${base}/customHeaders`, tier, permission: view, tag,
    summary: "The site's custom-header modules", params: s.siteParams, query: s.modulesQuery, response: paged(s.moduleItem) }),
  saveCustomHeader: defineRoute({ id: 'user.site.module.customHeader', method: 'PUT', path: `${base}/module/customHeader`, tier, permission: edit, tag,
    summary: 'Create a custom-header module (no id) or rename one', params: s.siteParams, body: s.moduleBody, response: envelope(s.moduleItem) }),
  removeCustomHeaders: defineRoute({ id: 'user.site.customHeaders.remove', method: 'DELETE', path: `${base}/customHeaders`, tier, permission: edit, tag,
    summary: 'Remove custom-header modules that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  headers: defineRoute({ id: 'user.site.customHeader.headers', method: 'GET', path: `${base}/customHeader/{moduleId}/headers`, tier, permission: view, tag,
    summary: 'The headers of a custom-header module', params: s.moduleParams, response: envelope(z.array(s.headerItem)) }),
  saveHeader: defineRoute({ id: 'user.site.customHeader.header', method: 'PUT', path: `${base}/customHeader/{moduleId}/header`, tier, permission: edit, tag,
    summary: 'Add (no id) or change a header: set or remove, on the request to the origin or the response (one name once per side)',
    params: s.moduleParams, body: s.headerBody, response: envelope(s.headerItem) }),
  removeHeaders: defineRoute({ id: 'user.site.customHeader.headers.remove', method: 'DELETE', path: `${base}/customHeader/{moduleId}/headers`, tier, permission: edit, tag,
    summary: 'Remove headers of a module', params: s.moduleParams, body: s.idsBody, response: done }),
  domainHeaders: defineRoute({ id: 'user.site.domain.customHeaders', method: 'GET', path: `${base}/domain/{domainId}/customHeaders`, tier, permission: view, tag,
    summary: 'The custom-header module of a domain and its headers', params: s.domainParams, response: envelope(s.domainHeaders) }),
  assignCustomHeader: assign('customHeader'),

  urlRedirects: defineRoute({ id: 'user.site.urlRedirects', method: 'GET', path: `${base}/urlRedirects`, tier, permission: view, tag,
    summary: "The site's URL-redirect modules", params: s.siteParams, query: s.modulesQuery, response: paged(s.moduleItem) }),
  createUrlRedirect: defineRoute({ id: 'user.site.urlRedirects.create', method: 'POST', path: `${base}/urlRedirects`, tier, permission: edit, tag,
    summary: 'Create a URL-redirect module', params: s.siteParams, body: s.createBody, response: envelope(s.moduleItem) }),
  renameUrlRedirect: defineRoute({ id: 'user.site.urlRedirects.update', method: 'PUT', path: `${base}/urlRedirects`, tier, permission: edit, tag,
    summary: 'Rename a URL-redirect module', params: s.siteParams, body: s.renameBody, response: envelope(s.moduleItem) }),
  removeUrlRedirects: defineRoute({ id: 'user.site.urlRedirects.remove', method: 'DELETE', path: `${base}/urlRedirects`, tier, permission: edit, tag,
    summary: 'Remove URL-redirect modules that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  urls: defineRoute({ id: 'user.site.urlRedirect.urls', method: 'GET', path: `${base}/urlRedirect/{moduleId}/urls`, tier, permission: view, tag,
    summary: 'The redirect rules of a module, in the order the edge tries them', params: s.moduleParams, query: s.redirectsQuery, response: paged(s.redirectItem) }),
  saveUrl: defineRoute({ id: 'user.site.urlRedirect.url', method: 'PUT', path: `${base}/urlRedirect/{moduleId}/url`, tier, permission: edit, tag,
    summary: 'Add (no id) or change a redirect rule: exact path, prefix or regex to a target, 301 or 302 (at most 3000 a module)',
    params: s.moduleParams, body: s.redirectBody, response: envelope(s.redirectItem) }),
  removeUrls: defineRoute({ id: 'user.site.urlRedirect.urls.remove', method: 'DELETE', path: `${base}/urlRedirect/{moduleId}/urls`, tier, permission: edit, tag,
    summary: 'Remove redirect rules', params: s.moduleParams, body: s.idsBody, response: done }),
  replaceUrl: defineRoute({ id: 'user.site.urlRedirect.replaceURL', method: 'POST', path: `${base}/urlRedirect/{moduleId}/replaceURL`, tier, permission: edit, tag,
    summary: 'Replace text in every target of the module', params: s.moduleParams, body: s.replaceUrlBody, response: envelope(s.replaceUrlResult) }),
  assignUrlRedirect: assign('urlRedirect'),

  corses: defineRoute({ id: 'user.site.corses', method: 'GET', path: `${base}/corses`, tier, permission: view, tag,
    summary: "The site's CORS settings (sortable by name, maxAge, createdAt)", params: s.siteParams, query: s.corsesQuery, response: paged(s.corsItem) }),
  createCors: defineRoute({ id: 'user.site.corses.create', method: 'POST', path: `${base}/corses`, tier, permission: edit, tag,
    summary: "Create a CORS setting: origin '*' or one https URL, methods, headers, credentials, max-age 1 to 86400 s",
    params: s.siteParams, body: s.corsBody, response: envelope(s.corsItem) }),
  updateCors: defineRoute({ id: 'user.site.corses.update', method: 'PUT', path: `${base}/corses`, tier, permission: edit, tag,
    summary: 'Change a CORS setting', params: s.siteParams, body: s.updateCorsBody, response: envelope(s.corsItem) }),
  removeCorses: defineRoute({ id: 'user.site.corses.remove', method: 'DELETE', path: `${base}/corses`, tier, permission: edit, tag,
    summary: 'Remove CORS settings that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  corsDomains: defineRoute({ id: 'user.site.module.cors.domains', method: 'GET', path: `${base}/module/cors/{id}/domains`, tier, permission: view, tag,
    summary: 'The domains that use a CORS setting', params: s.corsParams, response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  assignCors: defineRoute({ id: 'user.site.domains.module.cors', method: 'PUT', path: `${base}/domains/module/cors`, tier, permission: edit, tag,
    summary: 'Assign a CORS setting to domains (corsID 0 unassigns)', params: s.siteParams, body: s.assignCorsBody, response: done }),
  exists: defineRoute({ id: 'user.site.module.exists', method: 'GET', path: `${base}/module/exists`, tier, permission: view, tag,
    summary: 'Whether the site has modules of each kind', params: s.siteParams, response: envelope(s.moduleExists) }),

  antiReferers: defineRoute({ id: 'user.site.domain.antiReferers', method: 'GET', path: `${base}/domain/{domainId}/antiReferers`, tier, permission: 'firewall.view', tag,
    summary: "A domain's referer rules", params: s.domainParams, response: envelope(z.array(s.refererItem)) }),
  addAntiReferer: defineRoute({ id: 'user.site.domain.antiReferers.create', method: 'POST', path: `${base}/domain/{domainId}/antiReferers`, tier, permission: 'firewall.edit', tag,
    summary: 'Add a referer rule: allow only, or deny, these referer hosts (and optionally the empty referer)', params: s.domainParams, body: s.refererBody, response: envelope(s.refererItem) }),
  removeAntiReferers: defineRoute({ id: 'user.site.domain.antiReferers.remove', method: 'DELETE', path: `${base}/domain/{domainId}/antiReferers`, tier, permission: 'firewall.edit', tag,
    summary: 'Remove referer rules', params: s.domainParams, body: s.idsBody, response: done }),
  updateAntiReferer: defineRoute({ id: 'user.site.antiReferer.update', method: 'PUT', path: `${base}/antiReferer`, tier, permission: 'firewall.edit', tag,
    summary: 'Change a referer rule', params: s.siteParams, body: s.updateRefererBody, response: envelope(s.refererItem) }),
  antiHeaders: defineRoute({ id: 'user.site.domain.antiHeaders', method: 'GET', path: `${base}/domain/{domainId}/antiHeaders`, tier, permission: 'firewall.view', tag,
    summary: "A domain's header rules", params: s.domainParams, response: envelope(z.array(s.antiHeaderItem)) }),
  addAntiHeader: defineRoute({ id: 'user.site.domain.antiHeaders.create', method: 'POST', path: `${base}/domain/{domainId}/antiHeaders`, tier, permission: 'firewall.edit', tag,
    summary: 'Add a header rule: a request whose header exists, is missing, equals, contains or matches is refused with 403',
    params: s.domainParams, body: s.antiHeaderBody, response: envelope(s.antiHeaderItem) }),
  removeAntiHeaders: defineRoute({ id: 'user.site.domain.antiHeaders.remove', method: 'DELETE', path: `${base}/domain/{domainId}/antiHeaders`, tier, permission: 'firewall.edit', tag,
    summary: 'Remove header rules', params: s.domainParams, body: s.idsBody, response: done }),
  updateAntiHeader: defineRoute({ id: 'user.site.antiHeader.update', method: 'PUT', path: `${base}/antiHeader`, tier, permission: 'firewall.edit', tag,
    summary: 'Change a header rule', params: s.siteParams, body: s.updateAntiHeaderBody, response: envelope(s.antiHeaderItem) }),
} as const;
