import { authRoutes, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { managedAccount, setManagedPassword } from '../accounts/service';
import * as reg from './service';

export function registrationRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, authRoutes.tokenCheck, async ({ body }) => ({ data: await reg.checkMailToken(deps, body.token) }));
  registerRoute(app, deps, authRoutes.registerPassword, async ({ body }) => {
    await reg.registerPassword(deps, body.token, body.password);
    return { data: { ok: true } };
  });
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.resendEmail[tier], async ({ principal, body }) => {
      await reg.sendSetPasswordMail(deps, await managedAccount(deps, principal, body.id));
      return { data: { ok: true } };
    });
    registerRoute(app, deps, authRoutes.subPassword[tier], async ({ principal, body }) => {
      await setManagedPassword(deps, principal, body.id, body.password);
      return { data: { ok: true } };
    });
  }
}
