import { Codes, SET_PASSWORD_TOKEN_TTL_SECONDS } from '@edgekeep/contract';
import { inSeconds, now } from '../../db';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { hashPassword } from '../../lib/passwords';
import { findAccount, updateAccount, type Account } from '../accounts/repo';
import { findSetPasswordToken, replaceSetPasswordToken, useMailToken } from './repo';

/** Mails a set-password link (`/{tier}/verifyMail?token=`); earlier links of the account stop working. */
export async function sendSetPasswordMail(deps: AppDeps, account: Account) {
  const token = randomToken(32);
  await replaceSetPasswordToken(deps.db, account.id, sha256(token), inSeconds(SET_PASSWORD_TOKEN_TTL_SECONDS));
  const link = `${deps.config.publicUrl}/${account.auth}/verifyMail?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: account.email,
    subject: 'EdgeKeep: set your password',
    text: `An EdgeKeep ${account.auth} account was made for ${account.email}.\nSet its password here (the link works once, for 3 days):\n${link}\n`,
    hint: `set-password link for ${account.email}: ${link}`,
  });
}

async function openMailToken(deps: AppDeps, token: string) {
  const row = await findSetPasswordToken(deps.db, sha256(token));
  const account = row && !row.used_at && row.expires_at > now() ? await findAccount(deps.db, row.account_id) : undefined;
  if (!row || !account) throw new ApiError(Codes.WrongCode, { extra: 'invalid or expired link' });
  return { row, account };
}

export async function checkMailToken(deps: AppDeps, token: string) {
  const { account } = await openMailToken(deps, token);
  return { auth: account.auth, email: account.email, id: account.id, name: account.name, token };
}

/** Sets the password from a mail token, confirms the e-mail address and uses the token up. */
export async function registerPassword(deps: AppDeps, token: string, password: string) {
  const { row, account } = await openMailToken(deps, token);
  if (!(await useMailToken(deps.db, row.id))) throw new ApiError(Codes.WrongCode, { extra: 'invalid or expired link' });
  await updateAccount(deps.db, account.id, { password_hash: await hashPassword(password), email_confirmed: 1 });
}
