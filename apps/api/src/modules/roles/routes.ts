import { accountRoutes, TIERS } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as roles from './service';

export function rolesRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const tier of TIERS) {
    registerRoute(app, deps, accountRoutes.roles[tier], async ({ deps, principal, query }) => roles.listRoles(deps, principal, query), { kept: true });
    registerRoute(app, deps, accountRoutes.metaRoles[tier], async ({ deps, principal }) => ({ data: await roles.metaRoles(deps, principal) }), { kept: true });
    registerRoute(app, deps, accountRoutes.createRole[tier], async ({ principal, body }) => ({ data: await roles.createRole(deps, principal, body) }));
    registerRoute(app, deps, accountRoutes.updateRole[tier], async ({ principal, params, body }) => ({
      data: await roles.updateRole(deps, principal, params.roleId, body),
    }));
    registerRoute(app, deps, accountRoutes.removeRole[tier], async ({ principal, params }) => {
      await roles.removeRole(deps, principal, params.roleId);
      return { data: { ok: true } };
    });
  }
}
