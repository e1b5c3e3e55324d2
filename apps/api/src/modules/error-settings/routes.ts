import { clientSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { addDefaultPage, listDefaultPages, removeDefaultPages, updateDefaultPage } from './service';

/** The client's default error pages (errorSetting): served by the edge for sites without their own. */
export function errorSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.errorPages, async ({ principal, query }) => listDefaultPages(deps, principal, query));
  registerRoute(app, deps, r.createErrorPage, async ({ principal, body }) => ({ data: await addDefaultPage(deps, principal, body) }));
  registerRoute(app, deps, r.updateErrorPage, async ({ principal, body }) => ({ data: await updateDefaultPage(deps, principal, body) }));
  registerRoute(app, deps, r.removeErrorPages, async ({ principal, body }) => {
    await removeDefaultPages(deps, principal, body.ids);
    return { data: { ok: true } };
  });
}
