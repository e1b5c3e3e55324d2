import { z } from 'zod';
import * as s from '../schemas/site-modules';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Site modules';
const base = 'user/site/{siteId}';

/** The managed WAF rule set (ModSecurity + OWASP CRS): modules with mode, paranoia level and excluded rules. */
export const siteModuleWafRoutes = {
  defaultRules: defineRoute({ id: 'user.module.wafs.defaultRules', method: 'GET', path: 'user/module/wafs/defaultRules', tier, permission: 'sites.view', tag,
    summary: 'The rule groups of the managed rule set', response: envelope(z.array(s.defaultRule)) }),
  wafs: defineRoute({ id: 'user.site.module.wafs', method: 'GET', path: `${base}/module/wafs`, tier, permission: 'sites.view', tag,
    summary: "The site's WAF modules", params: s.siteParams, query: s.modulesQuery, response: paged(s.wafItem) }),
  createWaf: defineRoute({ id: 'user.site.module.wafs.create', method: 'POST', path: `${base}/module/wafs`, tier, permission: 'sites.edit', tag,
    summary: 'Create a WAF module: block or detect, paranoia 1 to 4, rule ids to exclude', params: s.siteParams, body: s.wafBody, response: envelope(s.wafItem) }),
  updateWaf: defineRoute({ id: 'user.site.module.waf.update', method: 'PUT', path: `${base}/module/waf`, tier, permission: 'sites.edit', tag,
    summary: 'Change a WAF module (the nodes reload)', params: s.siteParams, body: s.updateWafBody, response: envelope(s.wafItem) }),
  removeWafs: defineRoute({ id: 'user.site.module.wafs.remove', method: 'DELETE', path: `${base}/module/wafs`, tier, permission: 'sites.edit', tag,
    summary: 'Remove WAF modules that no domain uses', params: s.siteParams, body: s.idsBody, response: done }),
  assignWaf: defineRoute({ id: 'user.site.domains.module.waf', method: 'PUT', path: `${base}/domains/module/waf`, tier, permission: 'sites.edit', tag,
    summary: 'Turn the managed rule set on for domains with a module (moduleID 0 turns it off)', params: s.siteParams, body: s.assignBody, response: done }),
} as const;
