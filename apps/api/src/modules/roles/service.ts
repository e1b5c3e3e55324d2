import { Codes, permissionKeys } from '@edgekeep/contract';
import { toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, type Account } from '../accounts/repo';
import { readJson, stringList } from '../../db/json-column';
import { rolesRepo, type RoleTenant } from './repo';

/**
 * The account whose roles a tenant shares: the nearest ancestor of the same tier, else the account itself.
 * Admins all share one set of roles (null).
 */
export async function tenantRootId(deps: AppDeps, account: Account): Promise<number | null> {
  if (account.auth === 'admin') return null;
  if (account.is_root) return account.id;
  for (const id of account.tree_path.split('/').filter(Boolean).map(Number)) {
    const ancestor = await findAccount(deps.db, id);
    if (ancestor?.auth === account.auth) return ancestor.id;
  }
  return account.id;
}

/** The roles of the caller's tenant. */
async function tenantOf(deps: AppDeps, principal: Principal): Promise<RoleTenant> {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  return { tier: principal.tier, owner: await tenantRootId(deps, actor) };
}

/** A role the tenant of `account` owns, or 101003 as if it did not exist. */
export async function roleOfTenant(deps: AppDeps, account: Account, roleId: number) {
  const role = await rolesRepo(deps.db, { tier: account.auth, owner: await tenantRootId(deps, account) }).find(roleId);
  if (!role) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'roleID', message: 'no such role' }] } });
  return role;
}

/** A role may hold only keys of its tier that the account making it holds itself. */
function checkPermissions(principal: Principal, keys: string[]) {
  const known = new Set(permissionKeys(principal.tier));
  const bad = keys.filter((k) => !known.has(k) || !principal.permissions.has(k));
  if (bad.length) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'permissions', message: `not grantable: ${bad.join(', ')}` }] } });
  }
  return [...new Set(keys)].sort();
}

const toItem = (r: { id: number; name: string; permissions: string; created_at: string; updated_at: string; account_count: number | string | bigint }) => ({
  id: r.id,
  roleName: r.name,
  permissions: readJson('roles.permissions', stringList, r.permissions),
  accountCount: toCount(r.account_count),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function listRoles(deps: AppDeps, principal: Principal, page: { page: number; pageSize: number }) {
  const result = await rolesRepo(deps.db, await tenantOf(deps, principal)).page(page);
  return { data: result.data.map((r) => toItem(r as Parameters<typeof toItem>[0])), total: result.total };
}

export async function metaRoles(deps: AppDeps, principal: Principal) {
  const rows = await rolesRepo(deps.db, await tenantOf(deps, principal)).names();
  return rows.map((r) => ({ id: r.id, roleName: r.name }));
}

async function roleItem(roles: ReturnType<typeof rolesRepo>, id: number) {
  const row = await roles.item(id);
  if (!row) throw notFound('role');
  return toItem(row as Parameters<typeof toItem>[0]);
}

const duplicateName = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'roleName', message: 'Data already exists!' }] } });

export async function createRole(deps: AppDeps, principal: Principal, body: { roleName: string; permissions: string[] }) {
  const roles = rolesRepo(deps.db, await tenantOf(deps, principal));
  const permissions = checkPermissions(principal, body.permissions);
  if (await roles.nameTaken(body.roleName)) throw duplicateName();
  return roleItem(roles, await roles.create(body.roleName, permissions));
}

export async function updateRole(deps: AppDeps, principal: Principal, roleId: number, body: { roleName: string; permissions: string[] }) {
  const roles = rolesRepo(deps.db, await tenantOf(deps, principal));
  await roleItem(roles, roleId);
  const permissions = checkPermissions(principal, body.permissions);
  if (await roles.nameTaken(body.roleName, roleId)) throw duplicateName();
  await roles.update(roleId, body.roleName, permissions);
  return roleItem(roles, roleId);
}

export async function removeRole(deps: AppDeps, principal: Principal, roleId: number) {
  const roles = rolesRepo(deps.db, await tenantOf(deps, principal));
  const role = await roleItem(roles, roleId);
  if (role.accountCount > 0) throw new ApiError(Codes.RoleInUse, { extra: { accounts: role.accountCount } });
  await roles.remove(roleId);
}
