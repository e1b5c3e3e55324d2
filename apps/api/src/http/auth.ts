import { Codes, permissionKeys, type Tier } from '@edgekeep/contract';
import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppDeps } from '../deps';
import { now } from '../db';
import { sha256 } from '../lib/crypto';
import { ApiError } from './errors';

/** Who is calling: the account, its tier, its session, the account that switched into it, and what it may do. */
export type Principal = {
  accountId: number;
  tier: Tier;
  sessionId: number;
  sessionKind: 'login' | 'api' | 'proxy';
  proxyAccountId: number | null;
  isRoot: boolean;
  permissions: ReadonlySet<string>;
};

/** Root accounts hold every key of their tier; the others hold their role's keys. */
export function permissionsOf(tier: Tier, isRoot: boolean, rolePermissions: string | null): ReadonlySet<string> {
  const all = permissionKeys(tier);
  if (isRoot) return new Set(all);
  const granted = new Set(rolePermissions ? (JSON.parse(rolePermissions) as string[]) : []);
  return new Set(all.filter((k) => granted.has(k)));
}

/** `seconds`: the token's lifetime (default ACCESS_TOKEN_SECONDS). */
export async function signAccessToken(deps: AppDeps, p: { accountId: number; tier: Tier; sessionId: number; seconds?: number }) {
  return new SignJWT({ tier: p.tier, sid: p.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(p.accountId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (p.seconds ?? deps.config.accessTokenSeconds))
    .sign(deps.secrets.jwtKey);
}

/** Verifies an access token's signature and lifetime only: 101014 when it expired, 101013 otherwise. */
export async function readAccessToken(deps: AppDeps, token: string) {
  try {
    const { payload } = await jwtVerify(token, deps.secrets.jwtKey, { algorithms: ['HS256'] });
    return { accountId: Number(payload.sub), tier: payload.tier as Tier, sessionId: Number(payload.sid) };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(Codes.TokenExpired);
    throw new ApiError(Codes.WrongCode, { extra: 'invalid token' });
  }
}

/**
 * The caller of a token-protected route. A token of another tier, of a revoked session or of an account that
 * is disabled or expired is refused.
 */
export async function authenticate(deps: AppDeps, req: FastifyRequest, tier: Tier | 'any'): Promise<Principal> {
  const header = req.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer' || !token) throw new ApiError(Codes.WrongCode, { extra: 'missing token' });
  const claims = await readAccessToken(deps, token);
  // A verified token names its caller even when its session has ended: the operation log keeps who was refused.
  req.tokenCaller = { accountId: claims.accountId, tier: claims.tier };
  if (tier !== 'any' && claims.tier !== tier) throw new ApiError(Codes.WrongCode, { extra: 'token of another tier' });
  const row = await deps.db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .leftJoin('roles', 'roles.id', 'accounts.role_id')
    .select([
      'sessions.revoked_at',
      'sessions.expires_at',
      'sessions.kind',
      'sessions.proxy_account_id',
      'accounts.enabled',
      'accounts.is_root',
      'accounts.expires_at as account_expires',
      'roles.permissions',
    ])
    .where('sessions.id', '=', claims.sessionId)
    .where('sessions.account_id', '=', claims.accountId)
    .executeTakeFirst();
  const at = now();
  if (!row || row.revoked_at || (row.expires_at && row.expires_at < at)) {
    throw new ApiError(Codes.WrongCode, { extra: 'session ended' });
  }
  if (!row.enabled || (row.account_expires && row.account_expires < at)) throw new ApiError(Codes.AccountNotEnabled);
  return {
    ...claims,
    sessionKind: row.kind,
    proxyAccountId: row.proxy_account_id,
    isRoot: row.is_root === 1,
    permissions: permissionsOf(claims.tier, row.is_root === 1, row.permissions),
  };
}

/** An edge node calling the agent protocol: its id and zone. */
export type EdgeNode = { id: number; zone_id: number };

/** The node a credential (`Authorization: Node <credential>`) belongs to; a revoked or unknown one is refused like an invalid token. */
export async function authenticateNode(deps: AppDeps, req: FastifyRequest): Promise<EdgeNode> {
  const [scheme, credential] = (req.headers.authorization ?? '').split(' ');
  const node =
    scheme === 'Node' && credential
      ? await deps.db.selectFrom('nodes').select(['id', 'zone_id']).where('credential_hash', '=', sha256(credential)).executeTakeFirst()
      : undefined;
  if (!node) throw new ApiError(Codes.WrongCode, { extra: 'unknown or revoked node credential' });
  return node;
}

declare module 'fastify' {
  interface FastifyRequest {
    tokenCaller?: { accountId: number; tier: Tier };
  }
}
