import type { Tier } from '@edgekeep/contract';
import type { Insertable, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import type { AccountTable, Database } from '../../db/schema';

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
