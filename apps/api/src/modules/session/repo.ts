import type { Insertable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import type { ChallengeTable, SessionTable } from '../../db/schema';

/*
 * The sign-in aggregate's tables: sessions with their refresh tokens, the one-time challenges, the failed attempts and
 * an account's known addresses. They are read by what the request presents (a token's or key's hash, an account the
 * password or code was checked for) before any caller is known, so these are plain functions; none lists another
 * account's rows for a caller (a user's API tokens are read through `apiTokensRepo`).
 */

/** A new session (a refresh-token family) of an account the caller authenticated as or manages; answers its id. */
export const insertSession = async (db: Db, values: Omit<Insertable<SessionTable>, 'created_at'>) =>
  (await db.insertInto('sessions').values({ ...values, created_at: now() }).returning('id').executeTakeFirstOrThrow()).id;

export const insertRefreshToken = (db: Db, sessionId: number, tokenHash: string, expiresAt: string) =>
  db.insertInto('refresh_tokens').values({ session_id: sessionId, token_hash: tokenHash, created_at: now(), expires_at: expiresAt }).execute();

/** A refresh token by its hash, with its session and the session's account. */
export const refreshTokenByHash = (db: Db, tokenHash: string) =>
  db
    .selectFrom('refresh_tokens as r')
    .innerJoin('sessions as s', 's.id', 'r.session_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['r.id', 'r.rotated_at', 'r.expires_at', 's.id as session_id', 's.auth', 's.kind', 's.revoked_at', 's.expires_at as session_expires', 's.account_id', 'a.enabled', 'a.expires_at as account_expires'])
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** Marks a refresh token used; false when it already was (another request won the race). */
export async function claimRefreshToken(db: Db, id: number, at: string) {
  const claimed = await db.updateTable('refresh_tokens').set({ rotated_at: at }).where('id', '=', id).where('rotated_at', 'is', null).executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

export const markSessionUsed = (db: Db, sessionId: number, at: string) =>
  db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', sessionId).execute();

export const revokeSession = (db: Db, sessionId: number) =>
  db.updateTable('sessions').set({ revoked_at: now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();

/** Signs an account out everywhere, or everywhere but the session `keep`. */
export function revokeSessionsOf(db: Db, accountId: number, keep?: number) {
  let q = db.updateTable('sessions').set({ revoked_at: now() }).where('account_id', '=', accountId).where('revoked_at', 'is', null);
  if (keep !== undefined) q = q.where('id', '!=', keep);
  return q.execute();
}

export const insertChallenge = (db: Db, values: Omit<Insertable<ChallengeTable>, 'attempts' | 'created_at'>) =>
  db.insertInto('login_challenges').values({ ...values, attempts: 0, created_at: now() }).execute();

/** An account's challenge for a purpose by the hash of its one-pass key. */
export const findChallenge = (db: Db, opts: { keyHash: string; accountId: number; purpose: ChallengeTable['purpose'] }) =>
  db
    .selectFrom('login_challenges')
    .selectAll()
    .where('key_hash', '=', opts.keyHash)
    .where('account_id', '=', opts.accountId)
    .where('purpose', '=', opts.purpose)
    .executeTakeFirst();

export const setChallengeAttempts = (db: Db, id: number, attempts: number) =>
  db.updateTable('login_challenges').set({ attempts }).where('id', '=', id).execute();

/** Uses a challenge up; false when it already was. */
export async function useChallenge(db: Db, id: number) {
  const used = await db.updateTable('login_challenges').set({ used_at: now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Whether the account completed a sign-in from this address since `since`. */
export async function isKnownAddressSince(db: Db, accountId: number, ip: string, since: string) {
  const row = await db.selectFrom('known_addresses').select('account_id').where('account_id', '=', accountId).where('ip', '=', ip).where('last_seen_at', '>', since).executeTakeFirst();
  return row !== undefined;
}

export const rememberAddress = (db: Db, accountId: number, ip: string, at: string) =>
  db
    .insertInto('known_addresses')
    .values({ account_id: accountId, ip, last_seen_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'ip']).doUpdateSet({ last_seen_at: at }))
    .execute();

/** How many failures a throttling scope counts since `since`, and when the first of them was. */
export async function failuresSince(db: Db, scope: string, since: string) {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('first')])
    .where('scope', '=', scope)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { count: toCount(row?.n as number), first: String(row?.first) };
}

/** Counts a failure in each scope and forgets those from before `before`. */
export async function recordFailures(db: Db, scopes: string[], at: string, before: string) {
  await db.insertInto('auth_failures').values(scopes.map((scope) => ({ scope, created_at: at }))).execute();
  await db.deleteFrom('auth_failures').where('created_at', '<', before).execute();
}

export const clearFailures = (db: Db, scope: string) => db.deleteFrom('auth_failures').where('scope', '=', scope).execute();

/** The session behind a token's claims, with its account's state and role permissions (raw JSON): undefined when it is not the account's. */
export const sessionCaller = (db: Db, claims: { sessionId: number; accountId: number }) =>
  db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .leftJoin('roles', 'roles.id', 'accounts.role_id')
    .select([
      'sessions.revoked_at',
      'sessions.expires_at',
      'sessions.kind',
      'sessions.proxy_account_id',
      'accounts.enabled',
      'accounts.is_root',
      'accounts.expires_at as account_expires',
      'roles.permissions',
    ])
    .where('sessions.id', '=', claims.sessionId)
    .where('sessions.account_id', '=', claims.accountId)
    .executeTakeFirst();
