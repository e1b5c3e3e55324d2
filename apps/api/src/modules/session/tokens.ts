import { Codes, type Tier } from '@edgekeep/contract';
import { inSeconds, now } from '../../db';
import type { AppDeps } from '../../deps';
import { signAccessToken } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { tokenLifetimes } from '../system-settings/service';
import { claimRefreshToken, insertRefreshToken, insertSession, markSessionUsed, refreshTokenByHash, revokeSession } from './repo';

async function mintRefreshToken(deps: AppDeps, sessionId: number, seconds: number) {
  const refreshToken = randomToken(32);
  await insertRefreshToken(deps.db, sessionId, sha256(refreshToken), inSeconds(seconds));
  return refreshToken;
}

/** Opens a session (a refresh-token family) and answers its first tokens. */
export async function openSession(
  deps: AppDeps,
  opts: { accountId: number; tier: Tier; kind: 'login' | 'proxy'; proxyAccountId?: number | null },
) {
  const sessionId = await insertSession(deps.db, { account_id: opts.accountId, auth: opts.tier, kind: opts.kind, proxy_account_id: opts.proxyAccountId ?? null });
  const lifetimes = await tokenLifetimes(deps, opts.accountId);
  const refreshToken = await mintRefreshToken(deps, sessionId, lifetimes.refreshSeconds);
  const accessToken = await signAccessToken(deps, { accountId: opts.accountId, tier: opts.tier, sessionId, seconds: lifetimes.accessSeconds });
  return { accessToken, refreshToken, tokenType: 'Bearer' as const };
}

/**
 * Exchanges a refresh token for new tokens. Each refresh token works once: the answer carries its successor,
 * and presenting a used one again revokes the whole session, since only a thief would hold it. An API token
 * (a session of kind `api`) is the exception: it stays the same until it is deleted or expires.
 */
export async function rotateRefreshToken(deps: AppDeps, tier: Tier, refreshToken: string) {
  const refused = new ApiError(Codes.RefreshTokenFailed);
  const row = await refreshTokenByHash(deps.db, sha256(refreshToken));
  const at = now();
  if (!row || row.auth !== tier || row.revoked_at) throw refused;
  if (row.rotated_at) {
    await revokeSession(deps.db, row.session_id);
    deps.log.warn({ sessionId: row.session_id }, 'used refresh token presented again; session revoked');
    throw refused;
  }
  if (row.expires_at < at || (row.session_expires && row.session_expires < at)) throw refused;
  if (!row.enabled || (row.account_expires && row.account_expires < at)) throw new ApiError(Codes.AccountNotEnabled);
  const lifetimes = await tokenLifetimes(deps, row.account_id);
  if (row.kind === 'api') {
    // An API token is long-lived and kept by a script: it is not rotated, only its use is noted.
    await markSessionUsed(deps.db, row.session_id, at);
    const accessToken = await signAccessToken(deps, { accountId: row.account_id, tier, sessionId: row.session_id, seconds: lifetimes.accessSeconds });
    return { accessToken, refreshToken, tokenType: 'Bearer' as const };
  }
  if (!(await claimRefreshToken(deps.db, row.id, at))) {
    await revokeSession(deps.db, row.session_id);
    throw refused;
  }
  await markSessionUsed(deps.db, row.session_id, at);
  return {
    accessToken: await signAccessToken(deps, { accountId: row.account_id, tier, sessionId: row.session_id, seconds: lifetimes.accessSeconds }),
    refreshToken: await mintRefreshToken(deps, row.session_id, lifetimes.refreshSeconds),
    tokenType: 'Bearer' as const,
  };
}
