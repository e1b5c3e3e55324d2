import { siteSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as certs from '../certificates/service';
import * as pages from './error-pages';
import { moreSettingsRoutes } from './more-routes';
import * as settings from './service';

export function siteSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.certificates, async ({ deps, principal, params, query }) => certs.listCertificates(deps, principal, params.siteId, query), { kept: true });
  registerRoute(app, deps, r.metaCertificates, async ({ principal, params }) => ({ data: await certs.metaCertificates(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.certificate, async ({ principal, params }) => ({ data: await certs.certificateDetail(deps, principal, params.siteId, params.id) }));
  registerRoute(app, deps, r.createCertificate, async ({ principal, params, body }) => ({ data: await certs.createCertificate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateCertificate, async ({ principal, params, body }) => ({ data: await certs.updateCertificate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.bindCertificate, async ({ principal, params, body }) => ({ data: await certs.bindCertificate(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeCertificates, async ({ principal, params, body }) => {
    await certs.removeCertificates(deps, principal, params.siteId, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.settings, async ({ deps, principal, params }) => ({ data: await settings.readSettings(deps, principal, params.siteId) }), { kept: true });
  registerRoute(app, deps, r.createCacheRule, async ({ principal, params, body }) => ({ data: await settings.addCacheRule(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateCacheRule, async ({ principal, params, body }) => ({ data: await settings.updateCacheRule(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeCacheRules, async ({ principal, params, body }) => ({ data: await settings.removeCacheRules(deps, principal, params.siteId, body.ids) }));
  registerRoute(app, deps, r.purgeAll, async ({ principal, params }) => ({ data: await settings.purgeSite(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.purgeUrls, async ({ principal, params, body }) => ({ data: await settings.purgeUrls(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.gzip, async ({ principal, params, body }) => ({ data: await settings.setCompression(deps, principal, params.siteId, body) }));
  moreSettingsRoutes(app, deps);
  registerRoute(app, deps, r.errorPages, async ({ principal, params, query }) => pages.listErrorPages(deps, principal, params.siteId, query));
  registerRoute(app, deps, r.createErrorPage, async ({ principal, params, body }) => ({ data: await pages.addErrorPage(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.updateErrorPage, async ({ principal, params, body }) => ({ data: await pages.updateErrorPage(deps, principal, params.siteId, body) }));
  registerRoute(app, deps, r.removeErrorPages, async ({ principal, params, body }) => {
    await pages.removeErrorPages(deps, principal, params.siteId, body.ids);
    return { data: { ok: true } };
  });
}
