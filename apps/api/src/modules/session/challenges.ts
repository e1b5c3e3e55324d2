import { LOGIN_CODE_TTL_SECONDS } from '@edgekeep/contract';
import { inSeconds, now, type Db } from '../../db';
import type { ChallengeTable } from '../../db/schema';
import { decrypt, randomCode, randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { checkTotp } from '../../lib/totp';
import type { Account } from '../accounts/repo';
import { updateAccount } from '../accounts/repo';
import { findChallenge, insertChallenge, setChallengeAttempts, useChallenge } from './repo';

const MAX_ATTEMPTS = 5;
const codeHash = (key: string, code: string) => sha256(`${key}:${code}`);

/**
 * Starts a one-time challenge for an account. With `withCode` a 6-digit code is made (to mail or return);
 * otherwise the account's authenticator answers it. `secret` carries an encrypted pending TOTP secret.
 */
export async function openChallenge(
  db: Db,
  opts: { account: Account; purpose: ChallengeTable['purpose']; withCode: boolean; secret?: string },
) {
  const onePassKey = randomToken(24);
  const code = opts.withCode ? randomCode() : undefined;
  await insertChallenge(db, {
    key_hash: sha256(onePassKey),
    account_id: opts.account.id,
    purpose: opts.purpose,
    code_hash: code ? codeHash(onePassKey, code) : null,
    secret: opts.secret ?? null,
    expires_at: inSeconds(LOGIN_CODE_TTL_SECONDS),
  });
  return { onePassKey, code };
}

/** On success: the challenge's pending secret (sealed) and the authenticator step that answered it, if any. */
export type ChallengeOutcome = { ok: true; secret: string | null; step: number | null } | { ok: false };

/**
 * Checks a code against an open challenge of the account and uses it up on success. Codes are single use,
 * expire after ten minutes and allow five tries; authenticator codes are checked per RFC 6238 and a code
 * already used for the account is refused.
 */
export async function answerChallenge(
  db: Db,
  dataKey: Buffer,
  opts: { account: Account; purpose: ChallengeTable['purpose']; onePassKey: string; code: string },
): Promise<ChallengeOutcome> {
  const row = await findChallenge(db, { keyHash: sha256(opts.onePassKey), accountId: opts.account.id, purpose: opts.purpose });
  if (!row || row.used_at || row.expires_at < now() || row.attempts >= MAX_ATTEMPTS) return { ok: false };

  let valid: boolean;
  let step: number | null = null;
  if (row.code_hash) {
    valid = safeEqual(row.code_hash, codeHash(opts.onePassKey, opts.code));
  } else {
    // A pending secret (authenticator enrolment) or the account's own authenticator answers it.
    const sealed = row.secret ?? opts.account.totp_secret;
    step = sealed ? await checkTotp(decrypt(dataKey, sealed), opts.code, row.secret ? null : opts.account.totp_last_step) : null;
    valid = step !== null;
    if (valid && !row.secret) await updateAccount(db, opts.account.id, { totp_last_step: step });
  }
  if (!valid) {
    await setChallengeAttempts(db, row.id, row.attempts + 1);
    return { ok: false };
  }
  return (await useChallenge(db, row.id)) ? { ok: true, secret: row.secret, step } : { ok: false };
}
