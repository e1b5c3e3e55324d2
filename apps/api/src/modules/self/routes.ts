import { authRoutes, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { updateAccount } from '../accounts/repo';
import * as self from './service';

export function selfRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.self[tier], async ({ principal }) => ({ data: await self.selfInfo(deps, principal) }));
    registerRoute(app, deps, authRoutes.updateSelf[tier], async ({ principal, body }) => {
      await updateAccount(deps.db, principal.accountId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.loginNotify === undefined ? {} : { login_notify: body.loginNotify ? 1 : 0 }),
      });
      return { data: await self.selfInfo(deps, principal) };
    });
    registerRoute(app, deps, authRoutes.changePassword[tier], async ({ principal, body, req }) => {
      await self.changeOwnPassword(deps, principal, { ...body, ip: req.ip });
      return { data: { ok: true } };
    });
    registerRoute(app, deps, authRoutes.verify[tier], async ({ principal, body, req }) => {
      await self.confirmPassword(deps, await self.currentAccount(deps, principal), body.password, req.ip);
      return { data: { ok: true } };
    });
    registerRoute(app, deps, authRoutes.twoFactorPhase0[tier], async ({ principal }) => ({
      data: await self.twoFactorStart(deps, principal),
    }));
    registerRoute(app, deps, authRoutes.twoFactorPhase1[tier], async ({ principal, body }) => ({
      data: await self.twoFactorVerify(deps, principal, body),
    }));
    registerRoute(app, deps, authRoutes.twoFactorPhase2[tier], async ({ principal, body }) => ({
      data: await self.twoFactorConfirm(deps, principal, body),
    }));
  }
}
