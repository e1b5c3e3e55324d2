import { now, type Db } from '../../db';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { insertRefreshToken, insertSession } from '../session/repo';

const NEVER = '9999-12-31T23:59:59.999Z';

/**
 * The caller's API tokens: sessions of kind `api` of the signed-in account on its tier, whose refresh token does not
 * rotate. Another account's token answers 101003/404 ("API token not found") as if it did not exist.
 */
export function apiTokensRepo(db: Db, principal: Principal) {
  const tokens = () => db.selectFrom('sessions').where('account_id', '=', principal.accountId).where('kind', '=', 'api').where('revoked_at', 'is', null);
  return {
    /** A new token of the caller holding `tokenHash` as its refresh token; answers its id. */
    async create(input: { name: string; expiredAt?: string; tokenHash: string }) {
      const id = await insertSession(db, { account_id: principal.accountId, auth: principal.tier, kind: 'api', name: input.name, expires_at: input.expiredAt ?? null });
      await insertRefreshToken(db, id, input.tokenHash, input.expiredAt ?? NEVER);
      return id;
    },

    all: () =>
      tokens().select(['id', 'name', 'created_at', 'last_used_at', 'expires_at']).where('auth', '=', principal.tier).orderBy('id', 'desc').execute(),

    /** Revokes the given tokens, so access tokens made from them stop at once; all must be the caller's, or none is. */
    async revoke(ids: number[]) {
      const owned = await tokens().select('id').where('id', 'in', ids).execute();
      if (owned.length !== new Set(ids).size) throw notFound('API token');
      await db.updateTable('sessions').set({ revoked_at: now() }).where('id', 'in', ids).execute();
    },
  };
}
