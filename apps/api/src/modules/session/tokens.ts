import { Codes, type Tier } from '@edgekeep/contract';
import { inSeconds, now } from '../../db';
import type { AppDeps } from '../../deps';
import { signAccessToken } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { tokenLifetimes } from '../system-settings/service';

async function mintRefreshToken(deps: AppDeps, sessionId: number, seconds: number) {
  const refreshToken = randomToken(32);
  await deps.db
    .insertInto('refresh_tokens')
    .values({
      session_id: sessionId,
      token_hash: sha256(refreshToken),
      created_at: now(),
      expires_at: inSeconds(seconds),
    })
    .execute();
  return refreshToken;
}

/** Opens a session (a refresh-token family) and answers its first tokens. */
export async function openSession(
  deps: AppDeps,
  opts: { accountId: number; tier: Tier; kind: 'login' | 'proxy'; proxyAccountId?: number | null },
) {
  const session = await deps.db
    .insertInto('sessions')
    .values({
      account_id: opts.accountId,
      auth: opts.tier,
      kind: opts.kind,
      proxy_account_id: opts.proxyAccountId ?? null,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const lifetimes = await tokenLifetimes(deps, opts.accountId);
  const refreshToken = await mintRefreshToken(deps, session.id, lifetimes.refreshSeconds);
  const accessToken = await signAccessToken(deps, { accountId: opts.accountId, tier: opts.tier, sessionId: session.id, seconds: lifetimes.accessSeconds });
  return { accessToken, refreshToken, tokenType: 'Bearer' as const };
}

export const revokeSession = (deps: AppDeps, sessionId: number) =>
  deps.db.updateTable('sessions').set({ revoked_at: now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();

/**
 * Exchanges a refresh token for new tokens. Each refresh token works once: the answer carries its successor,
 * and presenting a used one again revokes the whole session, since only a thief would hold it. An API token
 * (a session of kind `api`) is the exception: it stays the same until it is deleted or expires.
 */
export async function rotateRefreshToken(deps: AppDeps, tier: Tier, refreshToken: string) {
  const refused = new ApiError(Codes.RefreshTokenFailed);
  const row = await deps.db
    .selectFrom('refresh_tokens as r')
    .innerJoin('sessions as s', 's.id', 'r.session_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['r.id', 'r.rotated_at', 'r.expires_at', 's.id as session_id', 's.auth', 's.kind', 's.revoked_at', 's.expires_at as session_expires', 's.account_id', 'a.enabled', 'a.expires_at as account_expires'])
    .where('r.token_hash', '=', sha256(refreshToken))
    .executeTakeFirst();
  const at = now();
  if (!row || row.auth !== tier || row.revoked_at) throw refused;
  if (row.rotated_at) {
    await revokeSession(deps, row.session_id);
    deps.log.warn({ sessionId: row.session_id }, 'used refresh token presented again; session revoked');
    throw refused;
  }
  if (row.expires_at < at || (row.session_expires && row.session_expires < at)) throw refused;
  if (!row.enabled || (row.account_expires && row.account_expires < at)) throw new ApiError(Codes.AccountNotEnabled);
  const lifetimes = await tokenLifetimes(deps, row.account_id);
  if (row.kind === 'api') {
    // An API token is long-lived and kept by a script: it is not rotated, only its use is noted.
    await deps.db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', row.session_id).execute();
    const accessToken = await signAccessToken(deps, { accountId: row.account_id, tier, sessionId: row.session_id, seconds: lifetimes.accessSeconds });
    return { accessToken, refreshToken, tokenType: 'Bearer' as const };
  }
  const claimed = await deps.db
    .updateTable('refresh_tokens')
    .set({ rotated_at: at })
    .where('id', '=', row.id)
    .where('rotated_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await revokeSession(deps, row.session_id);
    throw refused;
  }
  await deps.db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', row.session_id).execute();
  return {
    accessToken: await signAccessToken(deps, { accountId: row.account_id, tier, sessionId: row.session_id, seconds: lifetimes.accessSeconds }),
    refreshToken: await mintRefreshToken(deps, row.session_id, lifetimes.refreshSeconds),
    tokenType: 'Bearer' as const,
  };
}
