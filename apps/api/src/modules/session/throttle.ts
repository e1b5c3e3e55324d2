import { Codes } from '@edgekeep/contract';
import { now, type Db } from '../../db';
import { ApiError } from '../../http/errors';
import { clearFailures, failuresSince, isKnownAddressSince, recordFailures, rememberAddress } from './repo';

const WINDOW_SECONDS = 15 * 60;
/** An address an account completed a sign-in from within this many days is a known address of the account. */
const KNOWN_DAYS = 90;
/**
 * Failures allowed in the window, each a budget of its own: per account and per client address for attempts from
 * an address the account does not know, per account and address for attempts from a known one, so that failures
 * strangers spend elsewhere never refuse the right password from where the owner signs in.
 */
const LIMITS = { account: 5, address: 20, pair: 5 } as const;

/** One attempt at a password or code: the account as named (it may not exist) and where it came from. */
export type Attempt = { tier: string; email: string; ip: string; accountId?: number };

const scopesOf = (a: Attempt) => {
  const email = a.email.toLowerCase();
  return { account: `account:${a.tier}:${email}`, address: `address:${a.ip}`, pair: `pair:${a.tier}:${email}:${a.ip}` };
};

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

async function isKnownAddress(db: Db, a: Attempt) {
  if (a.accountId === undefined) return false;
  return isKnownAddressSince(db, a.accountId, a.ip, ago(KNOWN_DAYS * 86_400));
}

/** Refuses with HTTP 429 while a budget that applies to this attempt is spent, even for a correct password. */
export async function assertNotThrottled(db: Db, attempt: Attempt) {
  const scopes = scopesOf(attempt);
  const budgets = (await isKnownAddress(db, attempt)) ? (['pair'] as const) : (['account', 'address'] as const);
  for (const key of budgets) {
    const failures = await failuresSince(db, scopes[key], ago(WINDOW_SECONDS));
    if (failures.count >= LIMITS[key]) {
      const first = Date.parse(failures.first);
      const retryAfterSeconds = Math.max(1, Math.ceil((first + WINDOW_SECONDS * 1000 - Date.now()) / 1000));
      throw new ApiError(Codes.TooManyAttempts, { extra: { retryAfterSeconds } });
    }
  }
}

export async function recordFailure(db: Db, attempt: Attempt) {
  const at = now();
  const scopes = scopesOf(attempt);
  await recordFailures(db, [scopes.account, scopes.address, scopes.pair], at, ago(WINDOW_SECONDS));
}

/**
 * A completed sign-in makes its address known to the account and clears that address's failures on it; the
 * account's and the address's budgets keep what strangers spent.
 */
export async function recordSuccess(db: Db, attempt: Attempt & { accountId: number }) {
  const at = now();
  await rememberAddress(db, attempt.accountId, attempt.ip, at);
  await clearFailures(db, scopesOf(attempt).pair);
}
