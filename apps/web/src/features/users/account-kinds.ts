import type { Dayjs } from 'dayjs';
import type { Tier } from '@edgekeep/contract/tiers';
import type { AccountItem, CreateAccountBody, UpdateAccountBody } from './queries';

/** What kinds of account each area makes (the API's rule): the first is the default. */
export const KINDS: Record<Tier, Tier[]> = { admin: ['admin', 'client'], client: ['user', 'client'], user: ['user'] };

/**
 * Whether an account of `kind` made in area `tier` is a root of its tier (holding every key, no role): a client
 * made by an admin and a user made by a client are; sub-admins, sub-clients and sub-users hold a role.
 */
export const isRootKind = (tier: Tier, kind: Tier) => (tier === 'admin' && kind === 'client') || (tier === 'client' && kind === 'user');

/** The form's fields: dates are the date picker's values. */
export type AccountFields = {
  auth?: Tier;
  email?: string;
  name: string;
  password?: string;
  roleID?: number | null;
  expiredAt?: Dayjs | null;
  loginNotify?: boolean;
  grade?: number | null;
  dnsType?: string | null;
  enabled?: boolean;
};

const fieldsOf = (v: AccountFields, withRole: boolean) => ({
  ...(withRole ? { roleID: v.roleID ?? null } : {}),
  expiredAt: v.expiredAt ? v.expiredAt.toISOString() : null,
  loginNotify: v.loginNotify ?? false,
  grade: v.grade ?? 0,
  dnsType: v.dnsType?.trim() || null,
});

/** The POST body: without a password the new account gets the set-password mail. */
export function createBody(tier: Tier, v: AccountFields): CreateAccountBody {
  const auth = v.auth ?? KINDS[tier][0];
  return {
    email: v.email ?? '',
    name: v.name,
    ...(tier === 'user' ? {} : { auth }),
    ...(v.password ? { password: v.password } : {}),
    ...fieldsOf(v, !isRootKind(tier, auth)),
  };
}

/** The PUT body: a root account's role is never sent. */
export function updateBody(account: AccountItem, v: AccountFields): UpdateAccountBody {
  return { id: account.id, name: v.name, enabled: v.enabled ?? account.enabled, ...fieldsOf(v, !account.isRoot) };
}

/** Where a new tab opens the switched-into session (spec §2 /{tier}/switchUser). */
export const switchUserUrl = (r: { auth: Tier; accessToken: string; refreshToken: string; tokenType: string }) =>
  `/${r.auth}/switchUser?${new URLSearchParams({ accessToken: r.accessToken, refreshToken: r.refreshToken, tokenType: r.tokenType })}`;
