import { z } from 'zod';
import * as s from '../schemas/waf-acl';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Advanced firewall';
const site = 'user/site/{siteId}';
const mod = `${site}/module/luaAcl/{moduleID}`;
const view = 'firewall.view';
const edit = 'firewall.edit';

export const wafAclRoutes = {
  modules: defineRoute({ id: 'user.luaAcls', method: 'GET', path: `${site}/module/luaAcls`, tier, permission: view, tag,
    summary: "The site's advanced rule modules", params: s.siteParams, query: s.modulesQuery, response: paged(s.moduleItem) }),
  createModules: defineRoute({ id: 'user.luaAcls.create', method: 'POST', path: `${site}/module/luaAcls`, tier, permission: edit, tag,
    summary: 'Add advanced rule modules', params: s.siteParams, body: s.modulesBody, response: envelope(z.array(s.moduleItem)) }),
  removeModules: defineRoute({ id: 'user.luaAcls.remove', method: 'DELETE', path: `${site}/module/luaAcls`, tier, permission: edit, tag,
    summary: 'Remove modules (a module assigned to domains must be taken off them first)', params: s.siteParams, body: s.idsBody, response: done }),
  updateModule: defineRoute({ id: 'user.luaAcl.update', method: 'PUT', path: `${site}/module/luaAcl`, tier, permission: edit, tag,
    summary: 'Rename a module', params: s.siteParams, body: s.updateModuleBody, response: envelope(s.moduleItem) }),
  rules: defineRoute({ id: 'user.luaAcl.rules', method: 'GET', path: `${mod}/rules`, tier, permission: view, tag,
    summary: "A module's rules in priority order", params: s.moduleParams, query: s.rulesQuery, response: paged(s.ruleItem) }),
  createRule: defineRoute({ id: 'user.luaAcl.rules.create', method: 'POST', path: `${mod}/rules`, tier, permission: edit, tag,
    summary: 'Add one rule', params: s.moduleParams, body: s.ruleInput, response: envelope(s.ruleItem) }),
  updateRule: defineRoute({ id: 'user.luaAcl.rules.update', method: 'PUT', path: `${mod}/rules`, tier, permission: edit, tag,
    summary: 'Change one rule (its priority reorders it)', params: s.moduleParams, body: s.updateRuleBody, response: envelope(s.ruleItem) }),
  removeRules: defineRoute({ id: 'user.luaAcl.rules.remove', method: 'DELETE', path: `${mod}/rules`, tier, permission: edit, tag,
    summary: 'Remove rules', params: s.moduleParams, body: s.idsBody, response: done }),
  enableRules: defineRoute({ id: 'user.luaAcl.rule.enable', method: 'PUT', path: `${mod}/rule/enable`, tier, permission: edit, tag,
    summary: 'Enable or close rules in batch', params: s.moduleParams, body: s.enableBody, response: done }),
  assign: defineRoute({ id: 'user.domains.module.luaAcl', method: 'PUT', path: `${site}/domains/module/luaAcl`, tier, permission: edit, tag,
    summary: 'Assign a module to domains (moduleID 0 takes it off)', params: s.siteParams, body: s.assignBody, response: done }),
  exists: defineRoute({ id: 'user.firewall.adv.exists', method: 'GET', path: `${site}/firewall/setting/adv/exists`, tier, permission: view, tag,
    summary: 'Whether the site has advanced rules', params: s.siteParams, response: envelope(s.existsItem) }),
};

const fw = `${site}/firewall/setting`;
const ccTag = 'Anti-CC';
export const anticcRoutes = {
  list: defineRoute({ id: 'user.firewall.anticcs', method: 'GET', path: `${fw}/anticcs`, tier, permission: view, tag: ccTag,
    summary: "The site's anti-CC rules", params: s.siteParams, query: s.anticcsQuery, response: paged(s.anticcItem) }),
  create: defineRoute({ id: 'user.firewall.anticc.create', method: 'POST', path: `${fw}/anticc`, tier, permission: edit, tag: ccTag,
    summary: 'Add an anti-CC rule', params: s.siteParams, body: s.anticcInput, response: envelope(s.anticcItem) }),
  update: defineRoute({ id: 'user.firewall.anticc.update', method: 'PUT', path: `${fw}/anticc`, tier, permission: edit, tag: ccTag,
    summary: 'Change an anti-CC rule', params: s.siteParams, body: s.updateAnticcBody, response: envelope(s.anticcItem) }),
  enable: defineRoute({ id: 'user.firewall.anticcs.enable', method: 'PUT', path: `${fw}/anticcs/enable`, tier, permission: edit, tag: ccTag,
    summary: 'Enable or close anti-CC rules in batch', params: s.siteParams, body: s.enableBody, response: done }),
  remove: defineRoute({ id: 'user.firewall.anticcs.remove', method: 'DELETE', path: `${fw}/anticcs`, tier, permission: edit, tag: ccTag,
    summary: 'Remove anti-CC rules (an enabled rule must be closed first)', params: s.siteParams, body: s.idsBody, response: done }),
  freqs: defineRoute({ id: 'user.firewall.anticc.freqs', method: 'GET', path: `${fw}/anticc/freqs`, tier, permission: view, tag: ccTag,
    summary: 'The windows and thresholds offered', params: s.siteParams, response: envelope(s.freqsItem) }),
};
