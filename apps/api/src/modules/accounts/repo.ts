import type { Tier } from '@edgekeep/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import type { AccountTable } from '../../db/schema';

export type Account = Selectable<AccountTable>;

export const findAccountByEmail = (db: Db, auth: Tier, email: string) =>
  db.selectFrom('accounts').selectAll().where('auth', '=', auth).where('email', '=', email.toLowerCase()).executeTakeFirst();

export const findAccount = (db: Db, id: number) =>
  db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertAccount(db: Db, values: Omit<Insertable<AccountTable>, 'created_at' | 'updated_at'>) {
  const at = now();
  const row = await db
    .insertInto('accounts')
    .values({ ...values, email: values.email.toLowerCase(), created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

export const updateAccount = (db: Db, id: number, values: Updateable<AccountTable>) =>
  db.updateTable('accounts').set({ ...values, updated_at: now() }).where('id', '=', id).execute();

/** The account directly above: the parent user, else the parent client, else the client it belongs to. */
const parentOf = (a: Account) => a.parent_user_id ?? a.parent_client_id ?? a.client_id;

/**
 * Whether `actor` manages `target`: an admin manages every client account and every other non-root admin; a client
 * or user manages the accounts below it. Anything else answers like a missing account.
 */
export async function manages(db: Db, actor: Account, target: Account): Promise<boolean> {
  if (actor.id === target.id) return false;
  if (actor.auth === 'admin') return target.auth === 'client' || (target.auth === 'admin' && !target.is_root);
  let cursor: Account | undefined = target;
  for (let depth = 0; cursor && depth < 16; depth++) {
    const up = parentOf(cursor);
    if (up === null) return false;
    if (up === actor.id) return true;
    cursor = await findAccount(db, up);
  }
  return false;
}
