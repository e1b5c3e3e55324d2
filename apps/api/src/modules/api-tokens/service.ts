import { Codes } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { apiTokensRepo } from './repo';

/** An API token is a session of kind `api` whose refresh token does not rotate; its plain value is shown once. */
export async function createApiToken(deps: AppDeps, principal: Principal, body: { name: string; expiredAt?: string }) {
  if (principal.sessionKind !== 'login') throw new ApiError(Codes.PermissionDenied, { extra: 'API tokens are made from a signed-in session of the account itself' });
  if (body.expiredAt && body.expiredAt <= now()) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'expiredAt', message: 'must be in the future' }] } });
  const refreshToken = `ek_${randomToken(32)}`;
  const id = await apiTokensRepo(deps.db, principal).create({ name: body.name, expiredAt: body.expiredAt, tokenHash: sha256(refreshToken) });
  return { id, name: body.name, refreshToken };
}

export async function listApiTokens(deps: AppDeps, principal: Principal) {
  const rows = await apiTokensRepo(deps.db, principal).all();
  return rows.map((r) => ({ id: r.id, name: r.name ?? '', createdAt: r.created_at, lastUsedAt: r.last_used_at, expiredAt: r.expires_at }));
}

/** Deleting a token revokes its session, so access tokens made from it stop at once. */
export const removeApiTokens = (deps: AppDeps, principal: Principal, ids: number[]) => apiTokensRepo(deps.db, principal).revoke(ids);
