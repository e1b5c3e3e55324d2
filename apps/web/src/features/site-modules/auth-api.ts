import type { basicAuthSchemas, siteModuleSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

export type AuthGroup = z.infer<typeof basicAuthSchemas.groupItem>;
export type AuthUser = z.infer<typeof basicAuthSchemas.userItem>;
export type AuthRule = z.infer<typeof basicAuthSchemas.ruleItem>;
export type AuthRuleInput = z.input<typeof basicAuthSchemas.ruleBody>;
export type RefererItem = z.infer<typeof siteModuleSchemas.refererItem>;
export type RefererInput = z.input<typeof siteModuleSchemas.refererBody>;
export type AntiHeaderItem = z.infer<typeof siteModuleSchemas.antiHeaderItem>;
export type AntiHeaderInput = z.input<typeof siteModuleSchemas.antiHeaderBody>;

const tier = 'user' as const;
const at = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** Basic auth (spec §7 Auth) and a domain's referer and header rules. */
export const authApi = {
  groups: (siteId: number, query: ListQuery) => callList<AuthGroup>(at(siteId, 'auth/groups'), { tier, query }),
  metaGroups: (siteId: number) => call<{ id: number; name: string }[]>(at(siteId, 'auth/metaGroups'), { tier, query: { type: 'basic' } }),
  saveGroup: (siteId: number, name: string, id?: number) => send<AuthGroup>(id ? 'PUT' : 'POST', at(siteId, 'auth/group'), id ? { id, name } : { name }),
  removeGroups: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'auth/groups'), { ids }),
  users: (siteId: number, groupId: number) => call<AuthUser[]>(at(siteId, `auth/group/${groupId}/basicAuths`), { tier }),
  addUser: (siteId: number, groupId: number, body: { user: string; password: string }) => send<AuthUser>('POST', at(siteId, `auth/group/${groupId}/basicAuth`), body),
  removeUsers: (siteId: number, groupId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `auth/group/${groupId}/basicAuths`), { ids }),
  rules: (siteId: number, query: ListQuery) => callList<AuthRule>(at(siteId, 'auth/rules'), { tier, query }),
  createRule: (siteId: number, body: AuthRuleInput) => send<AuthRule>('POST', at(siteId, 'auth/rule'), body),
  removeRules: (siteId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, 'auth/rules'), { ids }),

  referers: (siteId: number, domainId: number) => call<RefererItem[]>(at(siteId, `domain/${domainId}/antiReferers`), { tier }),
  /** Adds a referer rule to the domain, or changes the one whose id is given. */
  saveReferer: (siteId: number, domainId: number, body: RefererInput & { id?: number }) =>
    body.id ? send<RefererItem>('PUT', at(siteId, 'antiReferer'), { ...body, domainId }) : send<RefererItem>('POST', at(siteId, `domain/${domainId}/antiReferers`), body),
  removeReferers: (siteId: number, domainId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `domain/${domainId}/antiReferers`), { ids }),
  antiHeaders: (siteId: number, domainId: number) => call<AntiHeaderItem[]>(at(siteId, `domain/${domainId}/antiHeaders`), { tier }),
  /** Adds a header rule to the domain, or changes the one whose id is given. */
  saveAntiHeader: (siteId: number, domainId: number, body: AntiHeaderInput & { id?: number }) =>
    body.id ? send<AntiHeaderItem>('PUT', at(siteId, 'antiHeader'), { ...body, domainId }) : send<AntiHeaderItem>('POST', at(siteId, `domain/${domainId}/antiHeaders`), body),
  removeAntiHeaders: (siteId: number, domainId: number, ids: number[]) => send<unknown>('DELETE', at(siteId, `domain/${domainId}/antiHeaders`), { ids }),
};
