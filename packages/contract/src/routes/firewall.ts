import { z } from 'zod';
import * as s from '../schemas/firewall';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Firewall';
const base = 'user/site/{siteId}/firewall/setting';

const listRoutes = (list: (typeof s.LISTS)[number]) => ({
  list: defineRoute({ id: `user.firewall.${list}s`, method: 'GET', path: `${base}/${list}s`, tier, permission: 'firewall.view', tag,
    summary: `The site's ${list} entries`, params: s.siteParams, query: s.ipRulesQuery, response: paged(s.ipRuleItem) }),
  create: defineRoute({ id: `user.firewall.${list}s.create`, method: 'POST', path: `${base}/${list}s`, tier, permission: 'firewall.edit', tag,
    summary: `Add ${list} entries, one per line (at most 5000; no address twice)`, params: s.siteParams, body: s.ipRuleBody,
    response: envelope(z.array(s.ipRuleItem)) }),
  update: defineRoute({ id: `user.firewall.${list}.update`, method: 'PUT', path: `${base}/${list}`, tier, permission: 'firewall.edit', tag,
    summary: `Change one ${list} entry`, params: s.siteParams, body: s.updateIpRuleBody, response: envelope(s.ipRuleItem) }),
  enable: defineRoute({ id: `user.firewall.${list}s.enable`, method: 'PUT', path: `${base}/${list}s/enable`, tier, permission: 'firewall.edit', tag,
    summary: `Enable or close ${list} entries in batch`, params: s.siteParams, body: s.enableBody, response: done }),
  remove: defineRoute({ id: `user.firewall.${list}s.remove`, method: 'DELETE', path: `${base}/${list}s`, tier, permission: 'firewall.edit', tag,
    summary: `Remove ${list} entries (an enabled entry must be closed first)`, params: s.siteParams, body: s.idsBody, response: done }),
});

export const firewallRoutes = { blacklist: listRoutes('blacklist'), whitelist: listRoutes('whitelist') } as const;
