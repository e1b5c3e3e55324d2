import type { accountSchemas, schemas } from '@edgekeep/contract';
import type { z } from 'zod';

/** Shapes of the sign-in and account calls, taken from the contract (types only: no zod in the bundle). */
export type SelfInfo = z.infer<typeof schemas.selfInfo>;
export type LoginResult = z.infer<typeof schemas.loginResult>;
export type Branding = z.infer<typeof schemas.branding>;
export type MailTokenInfo = z.infer<typeof schemas.mailTokenInfo>;
export type UpdateSelfBody = z.infer<typeof schemas.updateSelfBody>;
export type TwoFactorPhase0 = z.infer<typeof schemas.twoFactorPhase0Result>;
export type TwoFactorPhase1 = z.infer<typeof schemas.twoFactorPhase1Result>;
export type TwoFactorPhase2 = z.infer<typeof schemas.twoFactorPhase2Result>;

/** Shapes of the account-management calls (accounts, roles, API tokens, operation log). */
export type AccountItem = z.infer<typeof accountSchemas.accountItem>;
export type CreateAccountBody = z.input<typeof accountSchemas.createAccountBody>;
export type UpdateAccountBody = z.input<typeof accountSchemas.updateAccountBody>;
export type ProxyResult = z.infer<typeof accountSchemas.proxyResult>;
export type RoleItem = z.infer<typeof accountSchemas.roleItem>;
export type RoleBody = z.infer<typeof accountSchemas.roleBody>;
export type MetaRole = { id: number; roleName: string };
export type ApiTokenItem = z.infer<typeof accountSchemas.apiTokenItem>;
export type CreatedApiToken = z.infer<typeof accountSchemas.createdApiToken>;
export type AuditItem = z.infer<typeof accountSchemas.auditItem>;
