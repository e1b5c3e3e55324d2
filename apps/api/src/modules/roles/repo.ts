import type { Tier } from '@edgekeep/contract';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';

/** Whose roles: those of a tier that a tenant's root account owns, or (owner null) the ones all admins share. */
export type RoleTenant = { tier: Tier; owner: number | null };

/**
 * A tenant's roles. A role of another tenant or tier is not there: `find` and `item` answer undefined for it and a
 * change to it changes nothing.
 */
export function rolesRepo(db: Db, tenant: RoleTenant) {
  const scoped = () => {
    const q = db.selectFrom('roles').where('roles.auth', '=', tenant.tier);
    return tenant.owner === null ? q.where('roles.owner_id', 'is', null) : q.where('roles.owner_id', '=', tenant.owner);
  };
  const withCount = () =>
    scoped()
      .selectAll('roles')
      .select((eb) => eb.selectFrom('accounts').select(eb.fn.countAll().as('n')).whereRef('accounts.role_id', '=', 'roles.id').as('account_count'));
  /** The ids of the tenant's roles, for the changes. */
  const ids = () => scoped().select('roles.id');
  return {
    find: (id: number) => scoped().selectAll().where('roles.id', '=', id).executeTakeFirst(),

    /** A role with the number of accounts that hold it. */
    item: (id: number) => withCount().where('roles.id', '=', id).executeTakeFirst(),

    page: (page: { page: number; pageSize: number }) => paginate(withCount(), { page, sortable: {}, defaultSort: { column: 'roles.name', order: 'asc' }, idColumn: 'roles.id' }),

    names: () => scoped().select(['roles.id', 'roles.name']).orderBy('roles.name').execute(),

    /** Whether another role of the tenant (than `except`) has this name. */
    async nameTaken(name: string, except?: number) {
      let q = scoped().select('roles.id').where('roles.name', '=', name);
      if (except !== undefined) q = q.where('roles.id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async create(name: string, permissions: string[]) {
      const at = now();
      const row = await db
        .insertInto('roles')
        .values({ auth: tenant.tier, owner_id: tenant.owner, name, permissions: JSON.stringify(permissions), created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    update: (id: number, name: string, permissions: string[]) =>
      db.updateTable('roles').set({ name, permissions: JSON.stringify(permissions), updated_at: now() }).where('id', '=', id).where('id', 'in', ids()).execute(),

    remove: (id: number) => db.deleteFrom('roles').where('id', '=', id).where('id', 'in', ids()).execute(),
  };
}
