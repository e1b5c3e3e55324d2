import { Codes, LOGIN_2FA, permissionKeys } from '@edgekeep/contract';
import QRCode from 'qrcode';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { encrypt } from '../../lib/crypto';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { newTotpSecret, totpUri } from '../../lib/totp';
import { findAccount, updateAccount, type Account } from '../accounts/repo';
import { answerChallenge, openChallenge } from '../session/challenges';
import { revokeSessionsOf } from '../session/repo';
import { assertNotThrottled, recordFailure } from '../session/throttle';

export async function currentAccount(deps: AppDeps, principal: Principal) {
  const account = await findAccount(deps.db, principal.accountId);
  if (!account) throw notFound('account');
  return account;
}

const factorOf = (a: Account) =>
  a.second_factor === 'app' && a.totp_secret ? LOGIN_2FA.app : a.second_factor === 'none' ? LOGIN_2FA.none : LOGIN_2FA.mail;

/** Self information (spec §3); the contract's schema picks what leaves the server. */
export async function selfInfo(deps: AppDeps, principal: Principal) {
  const a = await currentAccount(deps, principal);
  const proxy = principal.proxyAccountId ? await findAccount(deps.db, principal.proxyAccountId) : undefined;
  return {
    id: a.id,
    auth: a.auth,
    email: a.email,
    name: a.name,
    isRoot: a.is_root === 1,
    dnsType: a.dns_type,
    maxLogExportTimes: a.max_log_export_times,
    login2FAType: factorOf(a),
    loginNotify: a.login_notify === 1,
    emailConfirmed: a.email_confirmed === 1,
    expiredAt: a.expires_at,
    permissions: [...principal.permissions],
    permissionKeys: permissionKeys(a.auth),
    proxy: proxy ? { id: proxy.id, email: proxy.email, auth: proxy.auth } : null,
    createdAt: a.created_at,
    updatedAt: a.updated_at,
  };
}

/** Checks the signed-in account's password, counting failures like sign-in does. */
export async function confirmPassword(deps: AppDeps, account: Account, password: string, ip: string) {
  const attempt = { tier: account.auth, email: account.email, ip, accountId: account.id };
  await assertNotThrottled(deps.db, attempt);
  if (!(await verifyPassword(account.password_hash, password))) {
    await recordFailure(deps.db, attempt);
    throw new ApiError(Codes.CredentialFailed);
  }
}

/** Changes the own password and signs out every other session of the account. */
export async function changeOwnPassword(deps: AppDeps, principal: Principal, input: { oldPassword: string; newPassword: string; ip: string }) {
  const account = await currentAccount(deps, principal);
  await confirmPassword(deps, account, input.oldPassword, input.ip);
  await updateAccount(deps.db, account.id, { password_hash: await hashPassword(input.newPassword) });
  await revokeSessionsOf(deps.db, account.id, principal.sessionId);
}

/**
 * Phase 0 of turning the authenticator on or off: the current method is verified first. Without the
 * authenticator a code is mailed; with it, the authenticator's code is asked for.
 */
export async function twoFactorStart(deps: AppDeps, principal: Principal) {
  const account = await currentAccount(deps, principal);
  const enabling = factorOf(account) !== LOGIN_2FA.app;
  const { onePassKey, code } = await openChallenge(deps.db, { account, purpose: '2fa-verify', withCode: enabling });
  if (code) {
    await deps.mailer.send({
      to: account.email,
      subject: 'EdgeKeep verification code',
      text: `Your verification code is ${code}.\nIt confirms a change to two-factor authentication and expires in 10 minutes.`,
      hint: `two-factor setup code for ${account.email}: ${code}`,
    });
  }
  return { onePassKey, login2FAType: enabling ? LOGIN_2FA.mail : LOGIN_2FA.app, enabling };
}

/** Phase 1: with the current method verified, either answers a new secret as a QR code, or turns the authenticator off. */
export async function twoFactorVerify(deps: AppDeps, principal: Principal, input: { onePassKey: string; code: string }) {
  const account = await currentAccount(deps, principal);
  const outcome = await answerChallenge(deps.db, deps.secrets.dataKey, { account, purpose: '2fa-verify', ...input });
  if (!outcome.ok) throw new ApiError(Codes.WrongCode);
  if (factorOf(account) === LOGIN_2FA.app) {
    await updateAccount(deps.db, account.id, { second_factor: 'mail', totp_secret: null, totp_last_step: null });
    return { login2FAType: LOGIN_2FA.mail };
  }
  const secret = newTotpSecret();
  const enroll = await openChallenge(deps.db, {
    account,
    purpose: '2fa-enroll',
    withCode: false,
    secret: encrypt(deps.secrets.dataKey, secret),
  });
  const qrCodeData = totpUri(secret, account.email);
  return { login2FAType: factorOf(account), onePassKey: enroll.onePassKey, qrCodeData, qrCode: await QRCode.toDataURL(qrCodeData) };
}

/** Phase 2: a code of the new secret turns the authenticator on. */
export async function twoFactorConfirm(deps: AppDeps, principal: Principal, input: { onePassKey: string; code: string }) {
  const account = await currentAccount(deps, principal);
  const outcome = await answerChallenge(deps.db, deps.secrets.dataKey, { account, purpose: '2fa-enroll', ...input });
  if (!outcome.ok || !outcome.secret) throw new ApiError(Codes.WrongCode);
  await updateAccount(deps.db, account.id, { second_factor: 'app', totp_secret: outcome.secret, totp_last_step: outcome.step });
  return { login2FAType: LOGIN_2FA.app };
}
