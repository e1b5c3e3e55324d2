import type { edge, wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

export type AclModule = z.infer<typeof wafAclSchemas.moduleItem>;
export type AclRule = z.infer<typeof wafAclSchemas.ruleItem>;
export type AclRuleInput = z.input<typeof wafAclSchemas.ruleInput>;
export type AclCondition = z.input<typeof edge.aclCondition>;

const tier = 'user' as const;
const site = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** The advanced WAF/ACL calls of spec §7 (WAF and ACL modules, module assignment). */
export const wafAclApi = {
  modules: (siteId: number, query: ListQuery) => callList<AclModule>(site(siteId, 'module/luaAcls'), { tier, query }),
  createModule: (siteId: number, body: { name: string; memo?: string }) => send<AclModule[]>('POST', site(siteId, 'module/luaAcls'), { modules: [body] }),
  updateModule: (siteId: number, body: { id: number; name: string; memo?: string }) => send<AclModule>('PUT', site(siteId, 'module/luaAcl'), body),
  removeModules: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, 'module/luaAcls'), { ids }),
  rules: (siteId: number, moduleId: number, query: ListQuery) => callList<AclRule>(site(siteId, `module/luaAcl/${moduleId}/rules`), { tier, query }),
  createRule: (siteId: number, moduleId: number, body: AclRuleInput) => send<AclRule>('POST', site(siteId, `module/luaAcl/${moduleId}/rules`), body),
  updateRule: (siteId: number, moduleId: number, body: Partial<AclRuleInput> & { id: number }) =>
    send<AclRule>('PUT', site(siteId, `module/luaAcl/${moduleId}/rules`), body),
  removeRules: (siteId: number, moduleId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, `module/luaAcl/${moduleId}/rules`), { ids }),
  enableRules: (siteId: number, moduleId: number, ids: number[], enabled: boolean) =>
    send<unknown>('PUT', site(siteId, `module/luaAcl/${moduleId}/rule/enable`), { ids, enabled }),
  assign: (siteId: number, domainIDs: number[], moduleID: number) => send<unknown>('PUT', site(siteId, 'domains/module/luaAcl'), { domainIDs, moduleID }),
};

export const keys = {
  modules: (siteId: number) => ['luaAcls', siteId],
  rules: (siteId: number, moduleId: number) => ['luaAcl', siteId, moduleId, 'rules'],
};
