import { Codes, permissionKeys, type Tier } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { paginate } from '../../db/paging';
import { findAccount, type Account } from '../accounts/repo';
import { readJson, stringList } from '../../db/json-column';

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

const scoped = (deps: AppDeps, tier: Tier, owner: number | null) => {
  const q = deps.db.selectFrom('roles').where('roles.auth', '=', tier);
  return owner === null ? q.where('roles.owner_id', 'is', null) : q.where('roles.owner_id', '=', owner);
};

async function actorOf(deps: AppDeps, principal: Principal) {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  return { actor, owner: await tenantRootId(deps, actor) };
}

/** A role the tenant of `account` owns, or 101003 as if it did not exist. */
export async function roleOfTenant(deps: AppDeps, account: Account, roleId: number) {
  const role = await scoped(deps, account.auth, await tenantRootId(deps, account)).selectAll().where('roles.id', '=', roleId).executeTakeFirst();
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

const withCount = (deps: AppDeps, tier: Tier, owner: number | null) =>
  scoped(deps, tier, owner)
    .selectAll('roles')
    .select((eb) => eb.selectFrom('accounts').select(eb.fn.countAll().as('n')).whereRef('accounts.role_id', '=', 'roles.id').as('account_count'));

export async function listRoles(deps: AppDeps, principal: Principal, page: { page: number; pageSize: number }) {
  const { owner } = await actorOf(deps, principal);
  const result = await paginate(withCount(deps, principal.tier, owner), {
    page,
    sortable: {},
    defaultSort: { column: 'roles.name', order: 'asc' },
    idColumn: 'roles.id',
  });
  return { data: result.data.map((r) => toItem(r as Parameters<typeof toItem>[0])), total: result.total };
}

export async function metaRoles(deps: AppDeps, principal: Principal) {
  const { owner } = await actorOf(deps, principal);
  const rows = await scoped(deps, principal.tier, owner).select(['roles.id', 'roles.name']).orderBy('roles.name').execute();
  return rows.map((r) => ({ id: r.id, roleName: r.name }));
}

async function roleItem(deps: AppDeps, tier: Tier, owner: number | null, id: number) {
  const row = await withCount(deps, tier, owner).where('roles.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('role');
  return toItem(row as Parameters<typeof toItem>[0]);
}

export async function createRole(deps: AppDeps, principal: Principal, body: { roleName: string; permissions: string[] }) {
  const { owner } = await actorOf(deps, principal);
  const permissions = checkPermissions(principal, body.permissions);
  if (await scoped(deps, principal.tier, owner).select('roles.id').where('roles.name', '=', body.roleName).executeTakeFirst()) {
    throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'roleName', message: 'Data already exists!' }] } });
  }
  const at = now();
  const row = await deps.db
    .insertInto('roles')
    .values({ auth: principal.tier, owner_id: owner, name: body.roleName, permissions: JSON.stringify(permissions), created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return roleItem(deps, principal.tier, owner, row.id);
}

export async function updateRole(deps: AppDeps, principal: Principal, roleId: number, body: { roleName: string; permissions: string[] }) {
  const { owner } = await actorOf(deps, principal);
  await roleItem(deps, principal.tier, owner, roleId);
  const permissions = checkPermissions(principal, body.permissions);
  const clash = await scoped(deps, principal.tier, owner).select('roles.id').where('roles.name', '=', body.roleName).where('roles.id', '!=', roleId).executeTakeFirst();
  if (clash) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'roleName', message: 'Data already exists!' }] } });
  await deps.db.updateTable('roles').set({ name: body.roleName, permissions: JSON.stringify(permissions), updated_at: now() }).where('id', '=', roleId).execute();
  return roleItem(deps, principal.tier, owner, roleId);
}

export async function removeRole(deps: AppDeps, principal: Principal, roleId: number) {
  const { owner } = await actorOf(deps, principal);
  const role = await roleItem(deps, principal.tier, owner, roleId);
  if (role.accountCount > 0) throw new ApiError(Codes.RoleInUse, { extra: { accounts: role.accountCount } });
  await deps.db.deleteFrom('roles').where('id', '=', roleId).execute();
}
