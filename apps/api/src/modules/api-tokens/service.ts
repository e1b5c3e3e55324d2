import { Codes } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';

const NEVER = '9999-12-31T23:59:59.999Z';

/** An API token is a session of kind `api` whose refresh token does not rotate; its plain value is shown once. */
export async function createApiToken(deps: AppDeps, principal: Principal, body: { name: string; expiredAt?: string }) {
  if (principal.sessionKind !== 'login') throw new ApiError(Codes.PermissionDenied, { extra: 'API tokens are made from a signed-in session of the account itself' });
  if (body.expiredAt && body.expiredAt <= now()) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'expiredAt', message: 'must be in the future' }] } });
  const session = await deps.db
    .insertInto('sessions')
    .values({ account_id: principal.accountId, auth: principal.tier, kind: 'api', name: body.name, created_at: now(), expires_at: body.expiredAt ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const refreshToken = `ek_${randomToken(32)}`;
  await deps.db
    .insertInto('refresh_tokens')
    .values({ session_id: session.id, token_hash: sha256(refreshToken), created_at: now(), expires_at: body.expiredAt ?? NEVER })
    .execute();
  return { id: session.id, name: body.name, refreshToken };
}

export async function listApiTokens(deps: AppDeps, principal: Principal) {
  const rows = await deps.db
    .selectFrom('sessions')
    .select(['id', 'name', 'created_at', 'last_used_at', 'expires_at'])
    .where('account_id', '=', principal.accountId)
    .where('auth', '=', principal.tier)
    .where('kind', '=', 'api')
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name ?? '', createdAt: r.created_at, lastUsedAt: r.last_used_at, expiredAt: r.expires_at }));
}

/** Deleting a token revokes its session, so access tokens made from it stop at once. */
export async function removeApiTokens(deps: AppDeps, principal: Principal, ids: number[]) {
  const owned = await deps.db
    .selectFrom('sessions')
    .select('id')
    .where('id', 'in', ids)
    .where('account_id', '=', principal.accountId)
    .where('kind', '=', 'api')
    .where('revoked_at', 'is', null)
    .execute();
  if (owned.length !== new Set(ids).size) throw notFound('API token');
  await deps.db.updateTable('sessions').set({ revoked_at: now() }).where('id', 'in', ids).execute();
}
