import { firewallRoutes, firewallSchemas } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import { blockedIpRoutesPlugin } from './blocked-routes';
import { firewallRuleRoutesPlugin } from './rules-routes';
import * as firewall from './service';

export function firewallRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  for (const list of firewallSchemas.LISTS) {
    const r = firewallRoutes[list];
    registerRoute(app, deps, r.list, async ({ deps, principal, params, query }) => firewall.listRules(deps, principal, params.siteId, list, query), { kept: true });
    registerRoute(app, deps, r.create, async ({ principal, params, body }) => ({ data: await firewall.addRules(deps, principal, params.siteId, list, body) }));
    registerRoute(app, deps, r.update, async ({ principal, params, body }) => ({ data: await firewall.updateRule(deps, principal, params.siteId, list, body) }));
    registerRoute(app, deps, r.enable, async ({ principal, params, body }) => {
      await firewall.enableRules(deps, principal, params.siteId, list, body.ids, body.enabled);
      return { data: { ok: true } };
    });
    registerRoute(app, deps, r.remove, async ({ principal, params, body }) => {
      await firewall.removeRules(deps, principal, params.siteId, list, body.ids);
      return { data: { ok: true } };
    });
  }
  firewallRuleRoutesPlugin(app, deps);
  blockedIpRoutesPlugin(app, deps);
}
