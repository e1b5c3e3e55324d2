import { authRoutes, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { finishLogin, startLogin } from './service';
import { revokeSession } from './repo';
import { rotateRefreshToken } from './tokens';

export function sessionRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.login[tier], async ({ body, req }) => ({
      data: await startLogin(deps, { tier, account: body.account, password: body.password, ip: req.ip }),
    }));
    registerRoute(app, deps, authRoutes.code[tier], async ({ body, req }) => ({
      data: await finishLogin(deps, { tier, ...body, ip: req.ip }),
    }));
    registerRoute(app, deps, authRoutes.refresh[tier], async ({ body }) => ({
      data: await rotateRefreshToken(deps, tier, body.refreshToken),
    }));
    registerRoute(app, deps, authRoutes.logout[tier], async ({ principal }) => {
      await revokeSession(deps.db, principal.sessionId);
      return { data: { ok: true } };
    });
  }
}
