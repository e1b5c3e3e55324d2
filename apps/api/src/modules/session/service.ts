import { Codes, LOGIN_2FA, type Tier } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { verifyPassword } from '../../lib/passwords';
import { findAccountByEmail, type Account } from '../accounts/repo';
import { answerChallenge, openChallenge } from './challenges';
import { assertNotThrottled, recordFailure, recordSuccess } from './throttle';
import { openSession } from './tokens';
import { notify } from '../notifications/events';
import { isNewAddress } from '../notifications/repo';

const isUsable = (a: Account) => a.enabled === 1 && (!a.expires_at || a.expires_at > now());

/** Step one: the password. Answers how the second step is made and mails the code when that is the way. */
export async function startLogin(deps: AppDeps, input: { tier: Tier; account: string; password: string; ip: string }) {
  const account = await findAccountByEmail(deps.db, input.tier, input.account);
  const attempt = { tier: input.tier, email: input.account, ip: input.ip, accountId: account?.id };
  await assertNotThrottled(deps.db, attempt);
  if (!(await verifyPassword(account?.password_hash ?? null, input.password)) || !account) {
    await recordFailure(deps.db, attempt);
    throw new ApiError(Codes.CredentialFailed);
  }
  if (!isUsable(account)) throw new ApiError(Codes.AccountNotEnabled);

  const factor = account.second_factor === 'app' && account.totp_secret ? 'app' : account.second_factor;
  const { onePassKey, code } = await openChallenge(deps.db, { account, purpose: 'login', withCode: factor !== 'app' });
  if (factor === 'mail') {
    await deps.mailer.send({
      to: account.email,
      subject: 'EdgeKeep sign-in code',
      text: `Your EdgeKeep sign-in code is ${code}.\nIt can be used once and expires in 10 minutes.\nIf you did not try to sign in, change your password.`,
      hint: `sign-in code for ${account.email}: ${code}`,
    });
    return { login2FAType: LOGIN_2FA.mail, onePassKey };
  }
  if (factor === 'app') return { login2FAType: LOGIN_2FA.app, onePassKey };
  return { login2FAType: LOGIN_2FA.none, onePassKey, code };
}

/** Step two: the code. Opens a session and answers its tokens. */
export async function finishLogin(
  deps: AppDeps,
  input: { tier: Tier; account: string; onePassKey: string; code: string; ip: string },
) {
  const account = await findAccountByEmail(deps.db, input.tier, input.account);
  const attempt = { tier: input.tier, email: input.account, ip: input.ip, accountId: account?.id };
  await assertNotThrottled(deps.db, attempt);
  const outcome = account
    ? await answerChallenge(deps.db, deps.secrets.dataKey, { account, purpose: 'login', onePassKey: input.onePassKey, code: input.code })
    : { ok: false as const };
  if (!account || !outcome.ok) {
    await recordFailure(deps.db, attempt);
    throw new ApiError(Codes.WrongCode);
  }
  if (!isUsable(account)) throw new ApiError(Codes.AccountNotEnabled);
  const newAddress = await isNewAddress(deps.db, account.id, input.ip);
  await recordSuccess(deps.db, { ...attempt, accountId: account.id });
  if (newAddress) await notify(deps, { kind: 'login.newAddress', accountId: account.id, subject: account.email, details: { tier: input.tier, address: input.ip } });
  const tokens = await openSession(deps, { accountId: account.id, tier: input.tier, kind: 'login' });
  if (account.login_notify) {
    await deps.mailer.send({
      to: account.email,
      subject: 'EdgeKeep: new sign-in to your account',
      text: `Your ${input.tier} account ${account.email} signed in at ${now()} from ${input.ip}.\nIf this was not you, change your password and sign out everywhere.`,
    });
  }
  return tokens;
}
