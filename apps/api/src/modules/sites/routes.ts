import { siteRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { sitesRepo } from './repo';
import * as sites from './service';
import { removeSiteUsers, shareSites, siteUsers, unshareSites } from './site-users';
import { userProducts } from './user-products';

export function sitesRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.sites, async ({ deps, principal, query }) => sitesRepo(deps, principal).page(query), { kept: true });
  registerRoute(app, deps, r.metaSites, async ({ deps, principal }) => ({ data: await sitesRepo(deps, principal).names() }), { kept: true });
  registerRoute(app, deps, r.createSite, async ({ principal, body }) => ({ data: await sites.createSite(deps, principal, body) }));
  registerRoute(app, deps, r.updateSite, async ({ principal, body }) => ({ data: await sites.updateSite(deps, principal, body) }));
  registerRoute(app, deps, r.removeSites, async ({ principal, body }) => {
    await sites.removeSites(deps, principal, body.ids);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.siteStatus, async ({ principal, body }) => {
    await sites.setSiteStatus(deps, principal, body.ids, body.status);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.removeSiteUsers, async ({ principal, body }) => {
    await removeSiteUsers(deps, principal, body);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.userSites, async ({ deps, principal, query }) => sitesRepo(deps, principal).page(query), { kept: true });
  registerRoute(app, deps, r.userMetaSites, async ({ deps, principal }) => ({ data: await sitesRepo(deps, principal).names() }), { kept: true });
  registerRoute(app, deps, r.userSite, async ({ deps, principal, params }) => ({ data: await sitesRepo(deps, principal).get(params.siteId) }), { kept: true });
  registerRoute(app, deps, r.userSiteTags, async ({ principal }) => ({ data: await sites.siteTags(deps, principal) }));
  registerRoute(app, deps, r.setUserSiteTags, async ({ principal, params, body }) => ({
    data: await sites.updateSite(deps, principal, { id: params.siteId, tags: body.tags }),
  }));
  registerRoute(app, deps, r.siteUsers, async ({ principal, params }) => ({ data: await siteUsers(deps, principal, params.siteId) }));
  registerRoute(app, deps, r.shareSites, async ({ principal, body }) => {
    await shareSites(deps, principal, body);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.unshareSites, async ({ principal, body }) => {
    await unshareSites(deps, principal, body);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, r.userProducts, async ({ principal, query }) => userProducts(deps, principal, query));
}
