import { z } from 'zod';
import * as s from '../schemas/site-settings';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const certs = 'Certificates';
const settings = 'Site settings';
const pages = 'Error pages';

export const siteSettingRoutes = {
  certificates: defineRoute({ id: 'user.site.certificates', method: 'GET', path: 'user/site/{siteId}/certificates', tier, permission: 'certificates.view', tag: certs,
    summary: "The site's certificates, with the names, issuer and validity read from them", params: s.siteParams, query: s.certificatesQuery, response: paged(s.certificateItem) }),
  metaCertificates: defineRoute({ id: 'user.site.metaCertificates', method: 'GET', path: 'user/site/{siteId}/metaCertificates', tier, permission: 'certificates.view', tag: certs,
    summary: 'Every certificate of the site, for pickers', params: s.siteParams, response: envelope(z.array(z.object({ id: z.number(), name: z.string() }))) }),
  certificate: defineRoute({ id: 'user.site.certificate', method: 'GET', path: 'user/site/{siteId}/certificate/{id}', tier, permission: 'certificates.view', tag: certs,
    summary: 'One certificate with its chain (never its key)', params: s.certParams, response: envelope(s.certificateDetail) }),
  createCertificate: defineRoute({ id: 'user.site.certificate.create', method: 'POST', path: 'user/site/{siteId}/certificate', tier, permission: 'certificates.edit', tag: certs,
    summary: 'Upload a PEM chain and its private key; the key must match; it is kept encrypted', params: s.siteParams, body: s.createCertificateBody, response: envelope(s.certificateItem) }),
  updateCertificate: defineRoute({ id: 'user.site.certificate.update', method: 'PUT', path: 'user/site/{siteId}/certificate', tier, permission: 'certificates.edit', tag: certs,
    summary: 'Rename a certificate or replace its chain and key', params: s.siteParams, body: s.updateCertificateBody, response: envelope(s.certificateItem) }),
  bindCertificate: defineRoute({ id: 'user.site.certificate.domains', method: 'PATCH', path: 'user/site/{siteId}/certificate/domains', tier, permission: 'certificates.edit', tag: certs,
    summary: 'Serve a certificate on domains it covers (replaces the set)', params: s.siteParams, body: s.bindCertificateBody, response: envelope(s.certificateItem) }),
  removeCertificates: defineRoute({ id: 'user.site.certificates.remove', method: 'DELETE', path: 'user/site/{siteId}/certificates', tier, permission: 'certificates.edit', tag: certs,
    summary: 'Remove certificates no domain serves', params: s.siteParams, body: s.idsBody, response: done }),

  settings: defineRoute({ id: 'user.site.settings', method: 'GET', path: 'user/site/{siteId}/settings', tier, permission: 'sites.view', tag: settings,
    summary: "The site's cache rules and compression", params: s.siteParams, response: envelope(s.siteSettings) }),
  createCacheRule: defineRoute({ id: 'user.site.cacheRule.create', method: 'POST', path: 'user/site/{siteId}/cacheRule', tier, permission: 'sites.edit', tag: settings,
    summary: 'Add a cache rule: file types or URL prefixes, seconds (0 = no cache), follow origin or force', params: s.siteParams, body: s.cacheRuleInput, response: envelope(s.siteSettings) }),
  updateCacheRule: defineRoute({ id: 'user.site.cacheRule.update', method: 'PUT', path: 'user/site/{siteId}/cacheRule', tier, permission: 'sites.edit', tag: settings,
    summary: 'Change a cache rule', params: s.siteParams, body: s.updateCacheRuleBody, response: envelope(s.siteSettings) }),
  removeCacheRules: defineRoute({ id: 'user.site.cacheRules.remove', method: 'DELETE', path: 'user/site/{siteId}/cacheRules', tier, permission: 'sites.edit', tag: settings,
    summary: 'Remove cache rules', params: s.siteParams, body: s.idsBody, response: envelope(s.siteSettings) }),
  purgeAll: defineRoute({ id: 'user.site.purgeAll', method: 'DELETE', path: 'user/site/{siteId}/setting/currentCache', tier, permission: 'sites.edit', tag: settings,
    summary: "Empty the edge cache of every domain of the site, on every node of its zone", params: s.siteParams, response: envelope(s.purgeResult) }),
  purgeUrls: defineRoute({ id: 'user.site.purgeUrls', method: 'DELETE', path: 'user/site/{siteId}/setting/urlCache', tier, permission: 'sites.edit', tag: settings,
    summary: 'Remove URLs of the site from the edge cache, on every node of its zone', params: s.siteParams, body: s.urlPurgeBody, response: envelope(s.purgeResult) }),
  gzip: defineRoute({ id: 'user.site.gzip', method: 'PUT', path: 'user/site/{siteId}/setting/gzip', tier, permission: 'sites.edit', tag: settings,
    summary: 'Turn gzip compression on or off', params: s.siteParams, body: s.gzipBody, response: envelope(s.siteSettings) }),

  errorPages: defineRoute({ id: 'user.site.errorPages', method: 'GET', path: 'user/site/{siteId}/errorPages', tier, permission: 'errorPages.view', tag: pages,
    summary: "The site's custom error pages", params: s.siteParams, query: s.errorPagesQuery, response: paged(s.errorPageItem) }),
  createErrorPage: defineRoute({ id: 'user.site.errorPage.create', method: 'POST', path: 'user/site/{siteId}/errorPage', tier, permission: 'errorPages.edit', tag: pages,
    summary: 'Add an error page for a status: content, a redirect URL or a script', params: s.siteParams, body: s.errorPageInput, response: envelope(s.errorPageItem) }),
  updateErrorPage: defineRoute({ id: 'user.site.errorPage.update', method: 'PUT', path: 'user/site/{siteId}/errorPage', tier, permission: 'errorPages.edit', tag: pages,
    summary: 'Change an error page', params: s.siteParams, body: s.updateErrorPageBody, response: envelope(s.errorPageItem) }),
  removeErrorPages: defineRoute({ id: 'user.site.errorPage.remove', method: 'DELETE', path: 'user/site/{siteId}/errorPage', tier, permission: 'errorPages.edit', tag: pages,
    summary: 'Remove error pages', params: s.siteParams, body: s.idsBody, response: done }),
} as const;
