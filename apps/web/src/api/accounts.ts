import type { accountSchemas } from '@edgekeep/contract';
import type { Tier } from '@edgekeep/contract/tiers';
import type { ListQuery } from '../components/list-params';
import { call, callList } from './client';
import type {
  AccountItem,
  ApiTokenItem,
  AuditItem,
  CreateAccountBody,
  CreatedApiToken,
  MetaRole,
  ProxyResult,
  RoleBody,
  RoleItem,
  UpdateAccountBody,
} from './types';

/** The operation log type of each area (spec §2: a, c, u). */
export const AUDIT_TYPE: typeof accountSchemas.AUDIT_TYPES = { admin: 'a', client: 'c', user: 'u' };

/** Accounts, roles, API tokens and the operation log (spec §7 "Account calls"). */
export const accountsApi = {
  list: (tier: Tier, query: ListQuery) => callList<AccountItem>(`${tier}/accounts`, { tier, query }),
  subs: (tier: Tier, userId: number, query: ListQuery) => callList<AccountItem>(`${tier}/account/${userId}/subs`, { tier, query }),
  create: (tier: Tier, body: CreateAccountBody) => call<AccountItem>(`${tier}/account`, { method: 'POST', tier, body }),
  update: (tier: Tier, body: UpdateAccountBody) => call<AccountItem>(`${tier}/account`, { method: 'PUT', tier, body }),
  remove: (tier: Tier, ids: number[]) => call<unknown>(`${tier}/account`, { method: 'DELETE', tier, body: { ids } }),
  setPassword: (tier: Tier, body: { id: number; password: string }) =>
    call<unknown>(`${tier}/account/password`, { method: 'PUT', tier, body }),
  resendEmail: (tier: Tier, id: number) => call<unknown>(`${tier}/account/resendEmail`, { method: 'POST', tier, body: { id } }),
  proxy: (tier: Tier, id: number) => call<ProxyResult>(`${tier}/proxy`, { method: 'POST', tier, body: { id } }),

  roles: (tier: Tier, query: ListQuery) => callList<RoleItem>(`${tier}/roles`, { tier, query }),
  metaRoles: (tier: Tier) => call<MetaRole[]>(`${tier}/metaRoles`, { tier, delayMs: 0 }),
  createRole: (tier: Tier, body: RoleBody) => call<RoleItem>(`${tier}/role`, { method: 'POST', tier, body }),
  updateRole: (tier: Tier, id: number, body: RoleBody) => call<RoleItem>(`${tier}/role/${id}`, { method: 'PUT', tier, body }),
  removeRole: (tier: Tier, id: number) => call<unknown>(`${tier}/role/${id}`, { method: 'DELETE', tier }),

  apiTokens: (tier: Tier) => call<ApiTokenItem[]>('apiTokens', { tier }),
  createApiToken: (tier: Tier, body: { name: string; expiredAt?: string }) =>
    call<CreatedApiToken>('apiToken', { method: 'POST', tier, body }),
  removeApiTokens: (tier: Tier, ids: number[]) => call<unknown>('apiTokens', { method: 'DELETE', tier, body: { ids } }),

  auditLogs: (tier: Tier, query: ListQuery) =>
    callList<AuditItem>('auditLogs', { method: 'POST', tier, body: { ...query, type: AUDIT_TYPE[tier] } }),
};
