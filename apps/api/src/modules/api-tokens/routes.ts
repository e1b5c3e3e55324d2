import { accountRoutes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as tokens from './service';

export function apiTokensRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, accountRoutes.apiTokens, async ({ principal }) => ({ data: await tokens.listApiTokens(deps, principal) }));
  registerRoute(app, deps, accountRoutes.createApiToken, async ({ principal, body }) => ({ data: await tokens.createApiToken(deps, principal, body) }));
  registerRoute(app, deps, accountRoutes.removeApiTokens, async ({ principal, body }) => {
    await tokens.removeApiTokens(deps, principal, body.ids);
    return { data: { ok: true } };
  });
}
