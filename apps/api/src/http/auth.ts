import { Codes, permissionKeys, type Tier } from '@edgekeep/contract';
import { webcrypto } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppDeps } from '../deps';
import { now, onWrite, type Db } from '../db';
import { sha256 } from '../lib/crypto';
import { nodeByCredential } from '../modules/nodes/repo';
import { sessionCaller } from '../modules/session/repo';
import { ApiError } from './errors';
import { readJson, stringList } from '../db/json-column';

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
  const granted = new Set(rolePermissions ? readJson('roles.permissions', stringList, rolePermissions) : []);
  return new Set(all.filter((k) => granted.has(k)));
}

type Claims = { accountId: number; tier: Tier; sessionId: number };
/** Tokens verified once are kept with their claims and expiry (a console's token comes back with each of its calls). */
const VERIFIED_KEPT = 10_000;

/**
 * Per JWT key: the key as a CryptoKey, imported once (given the raw bytes, jose imports them again for every token),
 * and the tokens it verified.
 */
const perKey = new WeakMap<Uint8Array, { key: Promise<webcrypto.CryptoKey>; verified: Map<string, Claims & { exp: number }> }>();
function jwtKeyOf(deps: AppDeps) {
  const raw = deps.secrets.jwtKey;
  let kept = perKey.get(raw);
  if (!kept) {
    kept = { key: webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']), verified: new Map() };
    perKey.set(raw, kept);
  }
  return kept;
}

/** `seconds`: the token's lifetime (default ACCESS_TOKEN_SECONDS). */
export async function signAccessToken(deps: AppDeps, p: { accountId: number; tier: Tier; sessionId: number; seconds?: number }) {
  return new SignJWT({ tier: p.tier, sid: p.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(p.accountId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (p.seconds ?? deps.config.accessTokenSeconds))
    .sign(await jwtKeyOf(deps).key);
}

/**
 * Verifies an access token's signature and lifetime only: 101014 when it expired, 101013 otherwise. A token verified
 * before is not verified again until it expires.
 */
export async function readAccessToken(deps: AppDeps, token: string): Promise<Claims> {
  const { key, verified } = jwtKeyOf(deps);
  const known = verified.get(token);
  if (known && known.exp * 1000 > Date.now()) return { accountId: known.accountId, tier: known.tier, sessionId: known.sessionId };
  try {
    const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
    const claims = { accountId: Number(payload.sub), tier: payload.tier as Tier, sessionId: Number(payload.sid) };
    if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
    if (payload.exp !== undefined) verified.set(token, { ...claims, exp: payload.exp });
    return claims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(Codes.TokenExpired);
    throw new ApiError(Codes.WrongCode, { extra: 'invalid token' });
  }
}

/** How long a token's session, account and role are kept (see `callerOf`). */
const CALLER_KEPT_MS = 1000;
/** What decides whether a session's calls are served and what they may do: read with the caller of each call. */
const CALLER_TABLES = ['sessions', 'accounts', 'roles'];

/** The row behind a token, with what its role grants worked out once (a Set of a tier's keys for each call cost more than its query). */
type Caller = (NonNullable<Awaited<ReturnType<typeof sessionCaller>>> & { granted: ReadonlySet<string> }) | undefined;
type Callers = { generation: number; byToken: Map<string, { row: Caller; generation: number; until: number }> };
const callersOf = new WeakMap<Db, Callers>();

/**
 * The session, account and role behind a token, kept per token: a console sends its token with each of its calls,
 * and reading them again for each call cost one of the few queries a list makes. A write through this process to
 * sessions, accounts or roles (a sign-out, a revoked key, a disabled account, a changed role) drops every kept
 * caller at once, and a read that a write overlapped is not kept; a change made elsewhere (another API instance on
 * the same PostgreSQL, the command line) is seen within CALLER_KEPT_MS. The times (the session's and the account's
 * expiry) are checked on every call.
 */
async function callerOf(deps: AppDeps, token: string, claims: Claims): Promise<Caller> {
  let callers = callersOf.get(deps.db);
  if (!callers) {
    const fresh: Callers = { generation: 0, byToken: new Map() };
    onWrite(deps.db, (tables) => {
      if (!tables.has('*') && !CALLER_TABLES.some((t) => tables.has(t))) return;
      fresh.generation++;
      fresh.byToken.clear();
    });
    callersOf.set(deps.db, (callers = fresh));
  }
  const kept = callers.byToken.get(token);
  if (kept && kept.generation === callers.generation && kept.until > Date.now()) return kept.row;
  const generation = callers.generation;
  const read = await sessionCaller(deps.db, claims);
  const row: Caller = read && { ...read, granted: permissionsOf(claims.tier, read.is_root === 1, read.permissions) };
  if (generation === callers.generation) {
    if (callers.byToken.size >= VERIFIED_KEPT) callers.byToken.delete(callers.byToken.keys().next().value!);
    callers.byToken.set(token, { row, generation, until: Date.now() + CALLER_KEPT_MS });
  }
  return row;
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
  const row = await callerOf(deps, token, claims);
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
    permissions: row.granted,
  };
}

/** An edge node calling the agent protocol: its id and zone. */
export type EdgeNode = { id: number; zone_id: number };

/**
 * How long a node found by its credential is kept at most (see `authenticateNode`): every instance drops it as soon as
 * its credential changes, so this only bounds how long an unused entry holds its place.
 */
const NODE_KEPT_MS = 10 * 60_000;
type Nodes = { generation: number; byCredential: Map<string, { node: EdgeNode; until: number }> };
const nodesOf = new WeakMap<AppDeps['revisions'], Nodes>();
const keptNodes = (revisions: AppDeps['revisions']) => {
  let nodes = nodesOf.get(revisions);
  if (!nodes) {
    const made: Nodes = { generation: 0, byCredential: new Map() };
    revisions.onCredentialsChanged((zoneIds) => {
      made.generation++;
      for (const [hash, kept] of made.byCredential) if (!zoneIds || zoneIds.includes(kept.node.zone_id)) made.byCredential.delete(hash);
    });
    nodesOf.set(revisions, (nodes = made));
  }
  return nodes;
};

/**
 * Drops the nodes of the zones kept by credential, in every API instance on the database (this one at once): called
 * when a node is deleted, moved to another zone, enrolled again or its credential revoked.
 */
export const forgetNodeCredentials = (deps: AppDeps, zoneIds: number[]) => deps.revisions.credentialsChanged(deps.db, [...new Set(zoneIds)]);

/**
 * The node a credential (`Authorization: Node <credential>`) belongs to; a revoked or unknown one is refused like an
 * invalid token. Agents call several times per change (watch, state, report, commands), each call to any instance:
 * the node found is kept by its credential's hash until its zone's credentials change (`forgetNodeCredentials`; a
 * read that overlapped a change is not kept), so that a change does not cost a lookup per call.
 */
export async function authenticateNode(deps: AppDeps, req: FastifyRequest): Promise<EdgeNode> {
  const [scheme, credential] = (req.headers.authorization ?? '').split(' ');
  if (scheme !== 'Node' || !credential) throw new ApiError(Codes.WrongCode, { extra: 'unknown or revoked node credential' });
  const hash = sha256(credential);
  const nodes = keptNodes(deps.revisions);
  const kept = nodes.byCredential.get(hash);
  if (kept && kept.until > Date.now()) return kept.node;
  const generation = nodes.generation;
  const node = await nodeByCredential(deps.db, hash);
  if (!node) throw new ApiError(Codes.WrongCode, { extra: 'unknown or revoked node credential' });
  if (generation === nodes.generation) {
    if (nodes.byCredential.size >= VERIFIED_KEPT) nodes.byCredential.delete(nodes.byCredential.keys().next().value!);
    nodes.byCredential.set(hash, { node, until: Date.now() + NODE_KEPT_MS });
  }
  return node;
}

declare module 'fastify' {
  interface FastifyRequest {
    tokenCaller?: { accountId: number; tier: Tier };
  }
}
