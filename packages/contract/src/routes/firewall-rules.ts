import { z } from 'zod';
import * as s from '../schemas/firewall-rules';
import { enableBody, idsBody, siteParams } from '../schemas/firewall';
import { advanceBody, firewallSettings } from '../schemas/firewall-settings';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Firewall';
const site = 'user/site/{siteId}/firewall';
const baseOf = (plural: string) => (plural.startsWith('l4/') ? site : `${site}/setting`);
const base = `${site}/setting`;

const kindRoutes = <F extends z.ZodObject>(kind: s.RuleKind, { plural, singular, fields }: { plural: string; singular: string; fields: F }) => {
  const base = baseOf(plural);
  const idOf = (p: string) => p.replace('/', '.');
  return {
  list: defineRoute({ id: `user.firewall.${idOf(plural)}`, method: 'GET', path: `${base}/${plural}`, tier, permission: 'firewall.view', tag,
    summary: `The site's ${kind} rules`, params: siteParams, query: s.rulesQuery, response: paged(s.ruleItem(fields)) }),
  create: defineRoute({ id: `user.firewall.${idOf(plural)}.create`, method: 'POST', path: `${base}/${plural}`, tier, permission: 'firewall.edit', tag,
    summary: `Add a ${kind} rule`, params: siteParams, body: s.createRuleBody(fields), response: envelope(s.ruleItem(fields)) }),
  update: defineRoute({ id: `user.firewall.${idOf(singular)}.update`, method: 'PUT', path: `${base}/${singular}`, tier, permission: 'firewall.edit', tag,
    summary: `Change a ${kind} rule`, params: siteParams, body: s.updateRuleBody(fields), response: envelope(s.ruleItem(fields)) }),
  enable: defineRoute({ id: `user.firewall.${idOf(plural)}.enable`, method: 'PUT', path: `${base}/${plural}/enable`, tier, permission: 'firewall.edit', tag,
    summary: `Enable or close ${kind} rules in batch`, params: siteParams, body: enableBody, response: done }),
  remove: defineRoute({ id: `user.firewall.${idOf(plural)}.remove`, method: 'DELETE', path: `${base}/${plural}`, tier, permission: 'firewall.edit', tag,
    summary: `Remove ${kind} rules (an enabled rule must be closed first)`, params: siteParams, body: idsBody, response: done }),
  };
};

/** The routes of one rule kind with its fields left open, for a caller that picks the kind at run time. */
export type RuleKindRoutes = ReturnType<typeof kindRoutes<z.ZodObject>>;

export const firewallRuleRoutes = {
  geo: kindRoutes('geo', s.RULE_KINDS.geo),
  userAgent: kindRoutes('userAgent', s.RULE_KINDS.userAgent),
  antiHeader: kindRoutes('antiHeader', s.RULE_KINDS.antiHeader),
  limitReq: kindRoutes('limitReq', s.RULE_KINDS.limitReq),
  frequency: kindRoutes('frequency', s.RULE_KINDS.frequency),
  abuseIP: kindRoutes('abuseIP', s.RULE_KINDS.abuseIP),
  l4Blacklist: kindRoutes('l4Blacklist', s.RULE_KINDS.l4Blacklist),
  l4Whitelist: kindRoutes('l4Whitelist', s.RULE_KINDS.l4Whitelist),
  l4Position: kindRoutes('l4Position', s.RULE_KINDS.l4Position),
  l4LimitConn: kindRoutes('l4LimitConn', s.RULE_KINDS.l4LimitConn),
  advance: defineRoute({ id: 'user.firewall.advance', method: 'PUT', path: `${base}/advance`, tier, permission: 'firewall.edit', tag,
    summary: "Turn the site's advanced WAF/ACL rules on or off", params: siteParams, body: advanceBody, response: done }),
  settings: defineRoute({ id: 'user.firewall.settings', method: 'GET', path: 'user/site/{siteId}/firewall/settings', tier, permission: 'firewall.view', tag,
    summary: "What the site's firewall holds: entries per list, enabled ones, blocked addresses, the advanced switch", params: siteParams,
    response: envelope(firewallSettings) }),
  geoips: defineRoute({ id: 'user.geoips', method: 'GET', path: 'user/geoips', tier, tag,
    summary: 'The countries region rules can name (ISO 3166-1 alpha-2; the console shows their names)', response: envelope(z.array(s.geoipItem)) }),
} as const;
