import { firewallRuleRoutes, firewallRuleSchemas } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as rules from './rules-service';
import { firewallSettings, setAdvance } from './settings-service';

export function firewallRuleRoutesPlugin(app: FastifyInstance, deps: AppDeps) {
  for (const kind of firewallRuleSchemas.RULE_KIND_NAMES) {
    const r = firewallRuleRoutes[kind];
    registerRoute(app, deps, r.list, async ({ deps, principal, params, query }) => rules.listRules(deps, principal, params.siteId, kind, query), { kept: true });
    registerRoute(app, deps, r.create, async ({ principal, params, body }) => ({ data: await rules.createRule(deps, principal, params.siteId, kind, body as rules.CreateFields) }));
    registerRoute(app, deps, r.update, async ({ principal, params, body }) => ({ data: await rules.updateRule(deps, principal, params.siteId, kind, body as rules.UpdateFields) }));
    registerRoute(app, deps, r.enable, async ({ principal, params, body }) => {
      await rules.enableRules(deps, principal, params.siteId, kind, body.ids, body.enabled);
      return { data: { ok: true } };
    });
    registerRoute(app, deps, r.remove, async ({ principal, params, body }) => {
      await rules.removeRules(deps, principal, params.siteId, kind, body.ids);
      return { data: { ok: true } };
    });
  }
  registerRoute(app, deps, firewallRuleRoutes.advance, async ({ principal, params, body }) => {
    await setAdvance(deps, principal, params.siteId, body.enabled);
    return { data: { ok: true } };
  });
  registerRoute(app, deps, firewallRuleRoutes.settings, async ({ principal, params }) => ({ data: await firewallSettings(deps, principal, params.siteId) }));
  registerRoute(app, deps, firewallRuleRoutes.geoips, async () => ({
    data: firewallRuleSchemas.COUNTRY_CODES.map((code) => ({ id: code, code })),
  }));
}
