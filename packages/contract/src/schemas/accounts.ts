import { z } from 'zod';
import { displayName } from './name';
import { pageQuery } from '../paging';
import { TEXT_FIELD_MAX } from '../constants';
import { accountName, email, id, idParam, password, tier } from './account';

/** Time filters take ISO-8601 or unix seconds; handlers get ISO-8601 UTC. */
export const timeInput = z
  .union([z.coerce.number().int().min(0), z.iso.datetime({ offset: true })])
  .transform((v) => (typeof v === 'number' ? new Date(v * 1000) : new Date(v)).toISOString());
export const ids = z.array(id).min(1).max(500);

/** An account as its manager sees it (spec §3 Account). */
export const accountItem = z.object({
  id: z.number(),
  auth: tier,
  email: z.string(),
  name: z.string(),
  isRoot: z.boolean(),
  enabled: z.boolean(),
  roleID: z.number().nullable(),
  roleName: z.string().nullable(),
  grade: z.number(),
  clientID: z.number().nullable(),
  parentClientID: z.number().nullable(),
  parentUserID: z.number().nullable(),
  dnsType: z.string().nullable(),
  emailConfirmed: z.boolean(),
  authenticator: z.boolean(),
  loginNotify: z.boolean(),
  expiredAt: z.string().nullable(),
  createdBy: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const accountsQuery = pageQuery.extend({
  auth: tier.optional(),
  client: idParam.optional(),
  name: z.string().max(TEXT_FIELD_MAX).optional(),
});
export const subsQuery = pageQuery.extend({ auth: tier.optional() });
export const subsParams = z.object({ userId: idParam });

const accountFields = {
  roleID: id.nullable().optional(),
  expiredAt: timeInput.nullable().optional(),
  loginNotify: z.boolean().optional(),
  grade: z.number().int().min(0).max(1000).optional(),
  dnsType: z.string().max(32).nullable().optional(),
};
export const createAccountBody = z.object({
  email,
  name: accountName,
  /** Which kind of account: admin or client on the admin tier, client or user on the client tier; user on the user tier. */
  auth: tier.optional(),
  /** Without a password the account gets the set-password mail. */
  password: password.optional(),
  ...accountFields,
});
export const updateAccountBody = z.object({ id, name: accountName.optional(), enabled: z.boolean().optional(), ...accountFields });
export const idsBody = z.object({ ids });
export const proxyBody = z.object({ id });
export const proxyResult = z.object({ accessToken: z.string(), refreshToken: z.string(), tokenType: z.literal('Bearer'), auth: tier });

export const roleItem = z.object({
  id: z.number(),
  roleName: z.string(),
  permissions: z.array(z.string()),
  accountCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const roleBody = z.object({ roleName: displayName(64), permissions: z.array(z.string().max(64)).max(500) });
export const roleParams = z.object({ roleId: idParam });
export const assignRoleBody = z.object({ ids, roleID: id });

export const apiTokenItem = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiredAt: z.string().nullable(),
});
export const createApiTokenBody = z.object({ name: displayName(64), expiredAt: timeInput.optional() });
export const createdApiToken = z.object({ id: z.number(), name: z.string(), refreshToken: z.string() });

export const AUDIT_TYPES = { admin: 'a', client: 'c', user: 'u' } as const;
export const auditQuery = z.object({
  page: pageQuery.shape.page,
  pageSize: pageQuery.shape.pageSize,
  accountName: z.string().max(TEXT_FIELD_MAX).optional(),
  proxyName: z.string().max(TEXT_FIELD_MAX).optional(),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  reqID: z.string().max(64).optional(),
  url: z.string().max(TEXT_FIELD_MAX).optional(),
  type: z.enum(['a', 'c', 'u']).optional(),
  startTime: timeInput.optional(),
  endTime: timeInput.optional(),
});
export const auditItem = z.object({
  id: z.number(),
  type: z.enum(['a', 'c', 'u']),
  accountName: z.string().nullable(),
  proxyName: z.string().nullable(),
  method: z.string(),
  url: z.string(),
  reqID: z.string(),
  status: z.number(),
  code: z.number().nullable(),
  ip: z.string(),
  body: z.string().nullable(),
  createdAt: z.string(),
});
