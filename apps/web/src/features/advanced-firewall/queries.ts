import { useQuery } from '@tanstack/react-query';
import { wafAclRoutes as r } from '@edgekeep/contract/routes/waf-acl';
import type { aclCondition } from '@edgekeep/contract/edge/acl';
import type { moduleItem, modulesQuery, ruleInput, ruleItem, rulesQuery, updateRuleBody } from '@edgekeep/contract/schemas/waf-acl';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type AclModule = z.output<typeof moduleItem>;
export type AclRule = z.output<typeof ruleItem>;
export type AclRuleInput = z.input<typeof ruleInput>;
export type AclCondition = z.input<typeof aclCondition>;

export const aclKeys = {
  modules: (siteId: number) => ['luaAcls', siteId] as const,
  rules: (siteId: number, moduleId: number) => ['luaAcl', siteId, moduleId, 'rules'] as const,
};

/** The advanced WAF/ACL calls of spec §7 (WAF and ACL modules, module assignment). */
export const wafAcl = {
  modules: (siteId: number, query: ListQuery) => callRoute(r.modules, { params: { siteId }, query: query as z.input<typeof modulesQuery> }),
  createModule: async (siteId: number, module: { name: string; memo?: string }) => (await callRoute(r.createModules, { params: { siteId }, body: { modules: [module] } })).data,
  updateModule: async (siteId: number, body: { id: number; name: string; memo?: string }) => (await callRoute(r.updateModule, { params: { siteId }, body })).data,
  removeModules: (siteId: number, ids: number[]) => callRoute(r.removeModules, { params: { siteId }, body: { ids } }),
  rules: (siteId: number, moduleID: number, query: ListQuery) => callRoute(r.rules, { params: { siteId, moduleID }, query: query as z.input<typeof rulesQuery> }),
  createRule: (siteId: number, moduleID: number, body: AclRuleInput) => callRoute(r.createRule, { params: { siteId, moduleID }, body }),
  /** Changes a rule; a new priority reorders it. */
  updateRule: (siteId: number, moduleID: number, body: z.input<typeof updateRuleBody>) => callRoute(r.updateRule, { params: { siteId, moduleID }, body }),
  removeRules: (siteId: number, moduleID: number, ids: number[]) => callRoute(r.removeRules, { params: { siteId, moduleID }, body: { ids } }),
  enableRules: (siteId: number, moduleID: number, body: { ids: number[]; enabled: boolean }) => callRoute(r.enableRules, { params: { siteId, moduleID }, body }),
  /** Assigns the module to the domains; module 0 takes it off them. */
  assign: (siteId: number, domainIDs: number[], moduleID: number) => callRoute(r.assign, { params: { siteId }, body: { domainIDs, moduleID } }),
};

/** Every module of the site (at most 500), for the module list beside the rules. */
export const useAclModules = (siteId: number) => useQuery({ queryKey: aclKeys.modules(siteId), queryFn: () => wafAcl.modules(siteId, { page: 1, pageSize: 500 }) });
