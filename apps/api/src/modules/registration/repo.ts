import { now, type Db } from '../../db';

/*
 * Set-password links (mail_tokens). A link is read by the hash of the token it carries, before anyone signs in, so
 * these are plain functions.
 */

/** A new set-password link of an account; the account's earlier links stop working. */
export async function replaceSetPasswordToken(db: Db, accountId: number, tokenHash: string, expiresAt: string) {
  await db.updateTable('mail_tokens').set({ used_at: now() }).where('account_id', '=', accountId).where('used_at', 'is', null).execute();
  await db.insertInto('mail_tokens').values({ token_hash: tokenHash, account_id: accountId, purpose: 'set-password', expires_at: expiresAt, created_at: now() }).execute();
}

export const findSetPasswordToken = (db: Db, tokenHash: string) =>
  db.selectFrom('mail_tokens').selectAll().where('token_hash', '=', tokenHash).where('purpose', '=', 'set-password').executeTakeFirst();

/** Unscoped, for the operation log: the account a mail token (of any purpose) was made for. */
export const mailTokenOwner = async (db: Db, tokenHash: string) =>
  (await db.selectFrom('mail_tokens').select('account_id').where('token_hash', '=', tokenHash).executeTakeFirst())?.account_id;

/** Uses a link up; false when it already was. */
export async function useMailToken(db: Db, id: number) {
  const used = await db.updateTable('mail_tokens').set({ used_at: now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
