import { Codes } from '@edgekeep/contract';
import { now, toCount, type Db } from '../../db';
import { ApiError } from '../../http/errors';

const WINDOW_SECONDS = 15 * 60;
/** Failures allowed in the window before a scope is refused: per account, and per client address. */
const LIMITS = { account: 5, address: 20 } as const;

export type Scopes = { account: string; address: string };
export const scopesFor = (tier: string, email: string, ip: string): Scopes => ({
  account: `account:${tier}:${email.toLowerCase()}`,
  address: `address:${ip}`,
});

const since = () => new Date(Date.now() - WINDOW_SECONDS * 1000).toISOString();

/** Refuses with HTTP 429 while either scope has too many recent failures, even for a correct password. */
export async function assertNotThrottled(db: Db, scopes: Scopes) {
  for (const key of ['account', 'address'] as const) {
    const row = await db
      .selectFrom('auth_failures')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('first')])
      .where('scope', '=', scopes[key])
      .where('created_at', '>', since())
      .executeTakeFirst();
    if (toCount(row?.n as number) >= LIMITS[key]) {
      const first = Date.parse(String(row?.first));
      const retryAfterSeconds = Math.max(1, Math.ceil((first + WINDOW_SECONDS * 1000 - Date.now()) / 1000));
      throw new ApiError(Codes.TooManyAttempts, { extra: { retryAfterSeconds } });
    }
  }
}

export async function recordFailure(db: Db, scopes: Scopes) {
  const at = now();
  await db.insertInto('auth_failures').values([{ scope: scopes.account, created_at: at }, { scope: scopes.address, created_at: at }]).execute();
  await db.deleteFrom('auth_failures').where('created_at', '<', since()).execute();
}

/** A successful sign-in clears the account's failures; the address keeps its count. */
export const clearAccountFailures = (db: Db, scopes: Scopes) =>
  db.deleteFrom('auth_failures').where('scope', '=', scopes.account).execute();
