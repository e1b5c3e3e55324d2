import { z } from 'zod';
import * as s from '../schemas/accounts';
import { done, envelope, paged, pageQuery } from '../paging';
import { defineRoute, perTier } from '../route';

const tag = 'Accounts and roles';

export const accountRoutes = {
  list: perTier((tier) =>
    defineRoute({ id: `${tier}.accounts`, method: 'GET', path: `${tier}/accounts`, tier, permission: 'accounts.view', tag,
      summary: 'Accounts below the signed-in one (filters auth, client, name)', query: s.accountsQuery, response: paged(s.accountItem) })),
  create: perTier((tier) =>
    defineRoute({ id: `${tier}.account.create`, method: 'POST', path: `${tier}/account`, tier, permission: 'accounts.edit', tag,
      summary: 'Create an account below the signed-in one; without a password it gets the set-password mail',
      body: s.createAccountBody, response: envelope(s.accountItem) })),
  update: perTier((tier) =>
    defineRoute({ id: `${tier}.account.update`, method: 'PUT', path: `${tier}/account`, tier, permission: 'accounts.edit', tag,
      summary: 'Edit an account below the signed-in one', body: s.updateAccountBody, response: envelope(s.accountItem) })),
  remove: perTier((tier) =>
    defineRoute({ id: `${tier}.account.remove`, method: 'DELETE', path: `${tier}/account`, tier, permission: 'accounts.edit', tag,
      summary: 'Remove accounts below the signed-in one, with everything below them', body: s.idsBody, response: done })),
  subs: perTier((tier) =>
    defineRoute({ id: `${tier}.account.subs`, method: 'GET', path: `${tier}/account/{userId}/subs`, tier, permission: 'accounts.view', tag,
      summary: 'The accounts directly below one account', params: s.subsParams, query: s.subsQuery, response: paged(s.accountItem) })),
  proxy: perTier((tier) =>
    defineRoute({ id: `${tier}.proxy`, method: 'POST', path: `${tier}/proxy`, tier, permission: 'accounts.edit', tag,
      summary: "Switch into an account below: answers that account's tokens; its calls are logged with the original account as proxy",
      body: s.proxyBody, response: envelope(s.proxyResult) })),
  roles: perTier((tier) =>
    defineRoute({ id: `${tier}.roles`, method: 'GET', path: `${tier}/roles`, tier, permission: 'roles.view', tag,
      summary: 'Custom roles of the tenant', query: pageQuery.pick({ page: true, pageSize: true }),
      response: paged(s.roleItem) })),
  metaRoles: perTier((tier) =>
    defineRoute({ id: `${tier}.metaRoles`, method: 'GET', path: `${tier}/metaRoles`, tier, permission: 'accounts.view', tag,
      summary: 'Every role of the tenant, for pickers', response: envelope(z.array(z.object({ id: z.number(), roleName: z.string() }))) })),
  createRole: perTier((tier) =>
    defineRoute({ id: `${tier}.role.create`, method: 'POST', path: `${tier}/role`, tier, permission: 'roles.edit', tag,
      summary: 'Create a role holding a subset of the permission keys the signed-in account holds', body: s.roleBody, response: envelope(s.roleItem) })),
  updateRole: perTier((tier) =>
    defineRoute({ id: `${tier}.role.update`, method: 'PUT', path: `${tier}/role/{roleId}`, tier, permission: 'roles.edit', tag,
      summary: 'Rename a role or change its permission keys', params: s.roleParams, body: s.roleBody, response: envelope(s.roleItem) })),
  removeRole: perTier((tier) =>
    defineRoute({ id: `${tier}.role.remove`, method: 'DELETE', path: `${tier}/role/{roleId}`, tier, permission: 'roles.edit', tag,
      summary: 'Remove a role that no account holds', params: s.roleParams, response: done })),
  assignRole: perTier((tier) =>
    defineRoute({ id: `${tier}.account.role`, method: 'PUT', path: `${tier}/account/role`, tier, permission: 'accounts.edit', tag,
      summary: 'Give accounts below the signed-in one a role', body: s.assignRoleBody, response: done })),
  apiTokens: defineRoute({ id: 'apiTokens', method: 'GET', path: 'apiTokens', tier: 'any', permission: 'apiTokens.edit', tag: 'API tokens',
    summary: "The signed-in account's API tokens", response: envelope(z.array(s.apiTokenItem)) }),
  createApiToken: defineRoute({ id: 'apiToken.create', method: 'POST', path: 'apiToken', tier: 'any', permission: 'apiTokens.edit', tag: 'API tokens',
    summary: 'Create an API token: a long-lived refresh token, shown once, exchanged for access tokens through PATCH {area}',
    body: s.createApiTokenBody, response: envelope(s.createdApiToken) }),
  removeApiTokens: defineRoute({ id: 'apiTokens.remove', method: 'DELETE', path: 'apiTokens', tier: 'any', permission: 'apiTokens.edit', tag: 'API tokens',
    summary: 'Delete API tokens; access tokens made from them stop at once', body: s.idsBody, response: done }),
  auditLogs: defineRoute({ id: 'auditLogs', method: 'POST', path: 'auditLogs', tier: 'any', permission: 'auditLogs.view', readOnly: true, tag: 'Operation log',
    summary: 'The operation log of the signed-in account and the accounts below it', body: s.auditQuery, response: paged(s.auditItem) }),
} as const;
