import type { Tier } from '@edgekeep/contract';
import type { Insertable, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { AccountTable, Database } from '../../db/schema';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';

export type Account = Selectable<AccountTable>;

export const findAccountByEmail = (db: Db, auth: Tier, email: string) =>
  db.selectFrom('accounts').selectAll().where('auth', '=', auth).where('email', '=', email.toLowerCase()).executeTakeFirst();

export const findAccount = (db: Db, id: number) =>
  db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

/** The account directly above: the parent user, else the parent client, else the client it belongs to. */
const parentOf = (a: Pick<Account, 'parent_user_id' | 'parent_client_id' | 'client_id'>) =>
  a.parent_user_id ?? a.parent_client_id ?? a.client_id ?? null;

export async function insertAccount(db: Db, values: Omit<Insertable<AccountTable>, 'created_at' | 'updated_at' | 'tree_path'>) {
  const up = parentOf({ parent_user_id: values.parent_user_id ?? null, parent_client_id: values.parent_client_id ?? null, client_id: values.client_id ?? null });
  const parent = up === null ? undefined : await findAccount(db, up);
  const at = now();
  return db
    .insertInto('accounts')
    .values({
      ...values,
      email: values.email.toLowerCase(),
      tree_path: parent ? `${parent.tree_path}${parent.id}/` : '/',
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const updateAccount = (db: Db, id: number, values: Updateable<AccountTable>) =>
  db.updateTable('accounts').set({ ...values, updated_at: now() }).where('id', '=', id).execute();

/** Unscoped, for the first start: whether the root admin exists. */
export const rootAdminExists = async (db: Db) =>
  (await db.selectFrom('accounts').select('id').where('auth', '=', 'admin').where('is_root', '=', 1).executeTakeFirst()) !== undefined;

/** Unscoped, for the command line: every account, or those of one tier, by id. */
export function allAccounts(db: Db, auth?: Tier) {
  const q = db.selectFrom('accounts').select(['id', 'auth', 'email', 'name', 'is_root', 'enabled']).orderBy('id');
  return (auth ? q.where('auth', '=', auth) : q).execute();
}

type AccountQuery = SelectQueryBuilder<Database, 'accounts', object>;

/**
 * Narrows a query on `accounts` to the ones `actor` manages: an admin manages every client account and every
 * other non-root admin; a client or user manages the accounts below it.
 */
export function managedBy(query: AccountQuery, actor: Account): AccountQuery {
  if (actor.auth === 'admin') {
    return query.where((eb) =>
      eb.or([eb('accounts.auth', '=', 'client'), eb.and([eb('accounts.auth', '=', 'admin'), eb('accounts.is_root', '=', 0), eb('accounts.id', '!=', actor.id)])]),
    );
  }
  return query.where('accounts.tree_path', 'like', `%/${actor.id}/%`);
}

/** Whether `actor` manages `target`; anything it does not manage answers like a missing account. */
export function manages(actor: Account, target: Account): boolean {
  if (actor.id === target.id) return false;
  if (actor.auth === 'admin') return target.auth === 'client' || (target.auth === 'admin' && !target.is_root);
  return target.tree_path.includes(`/${actor.id}/`);
}

declare const managedMark: unique symbol;
/** An account below the caller; only `accountsRepo(…).get` makes one. */
export type ManagedAccount = Account & { readonly [managedMark]: true };

const withRole = (db: Db) => db.selectFrom('accounts').leftJoin('roles', 'roles.id', 'accounts.role_id').selectAll('accounts').select('roles.name as role_name');
const SORTABLE = { id: 'accounts.id', email: 'accounts.email', name: 'accounts.name', auth: 'accounts.auth', createdAt: 'accounts.created_at', updatedAt: 'accounts.updated_at', expiredAt: 'accounts.expires_at' };
const SORTING = { sortable: SORTABLE, defaultSort: { column: 'accounts.created_at', order: 'desc' as const }, idColumn: 'accounts.id' };
export type AccountsQuery = { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; auth?: Tier; client?: number; name?: string };

/**
 * The accounts the caller manages (`managedBy`): an admin, the clients and the other non-root admins; a client or
 * user, the accounts below it. Any other account answers 101003/404 ("account not found") as if it did not exist.
 */
export function accountsRepo(db: Db, principal: Principal) {
  let me: Promise<Account> | undefined;
  /** The caller's own account. */
  const actor = () =>
    (me ??= findAccount(db, principal.accountId).then((a) => {
      if (!a) throw notFound('account');
      return a;
    }));
  const get = async (id: number) => {
    const self = await actor();
    const target = await findAccount(db, id);
    if (!target || !manages(self, target)) throw notFound('account');
    return target as ManagedAccount;
  };
  const ids = (targets: ManagedAccount[]) => targets.map((a) => a.id);
  return {
    actor,
    get,

    /** A page of the managed accounts, with their role's name. */
    async page(query: AccountsQuery) {
      let q = managedBy(withRole(db), await actor()) as ReturnType<typeof withRole>;
      if (query.auth) q = q.where('accounts.auth', '=', query.auth);
      if (query.client) q = q.where('accounts.tree_path', 'like', `%/${query.client}/%`);
      if (query.name) {
        const like = `%${query.name.toLowerCase()}%`;
        q = q.where((eb) => eb.or([eb(eb.fn('lower', ['accounts.name']), 'like', like), eb('accounts.email', 'like', like)]));
      }
      return paginate(q, { page: query, ...SORTING });
    },

    /** A page of the accounts directly below the caller or an account it manages. */
    async subsPage(accountId: number, query: AccountsQuery) {
      if (accountId !== principal.accountId) await get(accountId);
      let q = withRole(db).where('accounts.tree_path', 'like', `%/${accountId}/`);
      if (query.auth) q = q.where('accounts.auth', '=', query.auth);
      return paginate(q, { page: query, ...SORTING });
    },

    /** A managed account with its role's name. */
    item: async (id: number) =>
      (managedBy(withRole(db), await actor()) as ReturnType<typeof withRole>).where('accounts.id', '=', id).executeTakeFirstOrThrow(),

    /** Removes accounts and, through the foreign keys, everything below them. */
    remove: (targets: ManagedAccount[]) => db.deleteFrom('accounts').where('id', 'in', ids(targets)).execute(),

    setRole: (targets: ManagedAccount[], roleId: number) =>
      db.updateTable('accounts').set({ role_id: roleId, updated_at: now() }).where('id', 'in', ids(targets)).execute(),
  };
}
