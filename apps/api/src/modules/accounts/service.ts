import { Codes, type Tier } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { forgetNodeCredentials, type Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { hashPassword } from '../../lib/passwords';
import { roleOfTenant } from '../roles/service';
import { sendSetPasswordMail } from '../registration/service';
import { revokeSessionsOf } from '../session/repo';
import { openSession } from '../session/tokens';
import { zonesOfClients } from '../zones/repo';
import { accountsRepo, findAccountByEmail, insertAccount, updateAccount, type Account, type AccountsQuery } from './repo';

export type NewAccount = {
  auth: Tier;
  email: string;
  name: string;
  password?: string;
  isRoot?: boolean;
  secondFactor?: 'mail' | 'none';
  clientId?: number | null;
  parentClientId?: number | null;
  parentUserId?: number | null;
  roleId?: number | null;
  createdBy?: number | null;
};

/** Creates an account of any tier; with a password it is ready to sign in, without one it waits for the mail link. */
export async function createAccount(deps: AppDeps, input: NewAccount) {
  if (await findAccountByEmail(deps.db, input.auth, input.email)) throw new ApiError(Codes.DuplicateEmail);
  return insertAccount(deps.db, {
    auth: input.auth,
    email: input.email,
    name: input.name,
    password_hash: input.password ? await hashPassword(input.password) : null,
    is_root: input.isRoot ? 1 : 0,
    enabled: 1,
    login_notify: 0,
    role_id: input.roleId ?? null,
    grade: 0,
    client_id: input.clientId ?? null,
    parent_client_id: input.parentClientId ?? null,
    parent_user_id: input.parentUserId ?? null,
    email_confirmed: input.password ? 1 : 0,
    created_by: input.createdBy ?? null,
    second_factor: input.secondFactor ?? 'mail',
    max_log_export_times: 3,
  });
}

/** An account below the caller; another tenant's account answers like a missing one. */
export const managedAccount = (deps: AppDeps, principal: Principal, id: number) => accountsRepo(deps.db, principal).get(id);

const fieldError = (field: string, message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message }] } });

type Row = Account & { role_name: string | null };
export const toItem = (a: Row) => ({
  id: a.id,
  auth: a.auth,
  email: a.email,
  name: a.name,
  isRoot: a.is_root === 1,
  enabled: a.enabled === 1,
  roleID: a.role_id,
  roleName: a.role_name,
  grade: a.grade,
  clientID: a.client_id,
  parentClientID: a.parent_client_id,
  parentUserID: a.parent_user_id,
  dnsType: a.dns_type,
  emailConfirmed: a.email_confirmed === 1,
  authenticator: a.second_factor === 'app' && a.totp_secret !== null,
  loginNotify: a.login_notify === 1,
  expiredAt: a.expires_at,
  createdBy: a.created_by,
  createdAt: a.created_at,
  updatedAt: a.updated_at,
});

export async function listAccounts(deps: AppDeps, principal: Principal, query: AccountsQuery) {
  if (principal.tier === 'user' && query.auth) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'auth', message: 'not accepted on the user tier' }] } });
  const page = await accountsRepo(deps.db, principal).page(query);
  return { data: page.data.map(toItem), total: page.total };
}

/** The accounts directly below one account (the caller itself, or one it manages). */
export async function listSubs(deps: AppDeps, principal: Principal, userId: number, query: AccountsQuery) {
  const page = await accountsRepo(deps.db, principal).subsPage(userId, query);
  return { data: page.data.map(toItem), total: page.total };
}

const itemOf = async (deps: AppDeps, principal: Principal, id: number) => toItem(await accountsRepo(deps.db, principal).item(id));

/** What kinds of account each tier makes: admins make admins and clients, clients make sub-clients and users, users make sub-users. */
const MAKES: Record<Tier, Tier[]> = { admin: ['admin', 'client'], client: ['user', 'client'], user: ['user'] };

type AccountFields = { roleID?: number | null; expiredAt?: string | null; loginNotify?: boolean; grade?: number; dnsType?: string | null };
type CreateBody = AccountFields & { email: string; name: string; auth?: Tier; password?: string };

/** Where a new account sits: a root of its tier (holding every key) or a sub-account (holding its role's keys). */
function placement(actor: Account, kind: Tier) {
  if (actor.auth === 'admin') return kind === 'client' ? { isRoot: true } : { isRoot: false };
  if (actor.auth === 'client') {
    return kind === 'user' ? { isRoot: true, clientId: actor.id } : { isRoot: false, parentClientId: actor.id };
  }
  return { isRoot: false, parentUserId: actor.id, clientId: actor.client_id };
}

export async function createManagedAccount(deps: AppDeps, principal: Principal, body: CreateBody) {
  const actor = await accountsRepo(deps.db, principal).actor();
  const kind = body.auth ?? MAKES[principal.tier][0];
  if (!MAKES[principal.tier].includes(kind)) throw fieldError('auth', `one of ${MAKES[principal.tier].join(', ')}`);
  const place = placement(actor, kind);
  if (place.isRoot && body.roleID) throw fieldError('roleID', 'a root account holds every permission');
  if (!place.isRoot && !body.roleID) throw fieldError('roleID', 'Required Field!');
  const roleId = body.roleID ? (await roleOfTenant(deps, actor, body.roleID)).id : null;
  const account = await createAccount(deps, {
    auth: kind,
    email: body.email,
    name: body.name,
    password: body.password,
    roleId,
    createdBy: principal.accountId,
    ...place,
  });
  await updateAccount(deps.db, account.id, {
    expires_at: body.expiredAt ?? null,
    login_notify: body.loginNotify ? 1 : 0,
    grade: body.grade ?? 0,
    dns_type: body.dnsType ?? null,
  });
  if (!body.password) await sendSetPasswordMail(deps, account);
  return itemOf(deps, principal, account.id);
}

export async function updateManagedAccount(deps: AppDeps, principal: Principal, body: AccountFields & { id: number; name?: string; enabled?: boolean }) {
  const target = await managedAccount(deps, principal, body.id);
  if (body.roleID !== undefined && target.is_root) throw fieldError('roleID', 'a root account holds every permission');
  if (body.roleID === null) throw fieldError('roleID', 'Required Field!');
  const roleId = body.roleID ? (await roleOfTenant(deps, target, body.roleID)).id : undefined;
  await updateAccount(deps.db, target.id, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.enabled === undefined ? {} : { enabled: body.enabled ? 1 : 0 }),
    ...(roleId === undefined ? {} : { role_id: roleId }),
    ...(body.expiredAt === undefined ? {} : { expires_at: body.expiredAt }),
    ...(body.loginNotify === undefined ? {} : { login_notify: body.loginNotify ? 1 : 0 }),
    ...(body.grade === undefined ? {} : { grade: body.grade }),
    ...(body.dnsType === undefined ? {} : { dns_type: body.dnsType }),
  });
  if (body.enabled === false) await revokeSessionsOf(deps.db, target.id);
  return itemOf(deps, principal, target.id);
}

/**
 * Removes accounts and everything below them; all of them must be managed by the caller, or nothing changes. The nodes
 * of a client's zones go with it: their credentials are forgotten.
 */
export async function removeManagedAccounts(deps: AppDeps, principal: Principal, ids: number[]) {
  const accounts = accountsRepo(deps.db, principal);
  const targets = await managedAll(accounts, ids);
  const zones = await zonesOfClients(deps.db, targets.map((t) => t.id));
  await accounts.remove(targets);
  await forgetNodeCredentials(deps, zones);
}

/** Each of the accounts, in order; all must be managed by the caller. */
async function managedAll(accounts: ReturnType<typeof accountsRepo>, ids: number[]) {
  const targets = [];
  for (const id of ids) targets.push(await accounts.get(id));
  return targets;
}

export async function assignRole(deps: AppDeps, principal: Principal, ids: number[], roleId: number) {
  const accounts = accountsRepo(deps.db, principal);
  const targets = await managedAll(accounts, ids);
  for (const target of targets) {
    if (target.is_root) throw fieldError('ids', 'a root account holds every permission');
    await roleOfTenant(deps, target, roleId);
  }
  await accounts.setRole(targets, roleId);
}

/** Switches into a managed account: a session of that account, marked with the original account as proxy. */
export async function switchInto(deps: AppDeps, principal: Principal, id: number) {
  const target = await managedAccount(deps, principal, id);
  if (!target.enabled) throw new ApiError(Codes.AccountNotEnabled);
  const tokens = await openSession(deps, {
    accountId: target.id,
    tier: target.auth,
    kind: 'proxy',
    proxyAccountId: principal.proxyAccountId ?? principal.accountId,
  });
  return { ...tokens, auth: target.auth };
}

/** Sets a managed account's password and signs it out everywhere. */
export async function setManagedPassword(deps: AppDeps, principal: Principal, id: number, password: string) {
  const target = await managedAccount(deps, principal, id);
  await updateAccount(deps.db, target.id, { password_hash: await hashPassword(password) });
  await revokeSessionsOf(deps.db, target.id);
}
