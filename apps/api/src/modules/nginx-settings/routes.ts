import { clientSettingRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { nginxSettings, setNginxDirectives } from './service';

/** The client's nginx directives (nginxSetting): http, stream, worker and custom. */
export function nginxSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.nginx, async ({ principal }) => ({ data: await nginxSettings(deps, principal) }));
  registerRoute(app, deps, r.setNginx, async ({ principal, params, body }) => ({ data: await setNginxDirectives(deps, principal, params.context, body.directives) }));
}
