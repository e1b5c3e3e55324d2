import { accountRoutes, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as accounts from './service';

export function accountsRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const tier of TIERS) {
    registerRoute(app, deps, accountRoutes.list[tier], async ({ deps, principal, query }) => accounts.listAccounts(deps, principal, query), { kept: true });
    registerRoute(app, deps, accountRoutes.create[tier], async ({ principal, body }) => ({
      data: await accounts.createManagedAccount(deps, principal, body),
    }));
    registerRoute(app, deps, accountRoutes.update[tier], async ({ principal, body }) => ({
      data: await accounts.updateManagedAccount(deps, principal, body),
    }));
    registerRoute(app, deps, accountRoutes.remove[tier], async ({ principal, body }) => {
      await accounts.removeManagedAccounts(deps, principal, body.ids);
      return { data: { ok: true } };
    });
    registerRoute(app, deps, accountRoutes.subs[tier], async ({ deps, principal, params, query }) => accounts.listSubs(deps, principal, params.userId, query), { kept: true });
    registerRoute(app, deps, accountRoutes.proxy[tier], async ({ principal, body }) => ({
      data: await accounts.switchInto(deps, principal, body.id),
    }));
    registerRoute(app, deps, accountRoutes.assignRole[tier], async ({ principal, body }) => {
      await accounts.assignRole(deps, principal, body.ids, body.roleID);
      return { data: { ok: true } };
    });
  }
}
