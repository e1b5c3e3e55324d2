import { accountSchemas, type Tier } from '@edgekeep/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps';
import { sha256 } from '../../lib/crypto';
import { findAccount, findAccountByEmail } from '../accounts/repo';
import { mailTokenOwner } from '../registration/repo';
import { insertAuditLine } from './repo';

const SECRET_KEY = /pass|token|secret|code|key/i;
const BODY_LIMIT = 4000;
const DEPTH_LIMIT = 16;

/** The request body as the operation log keeps it: every value under a secret-looking key is removed, deep nesting cut. */
export function redact(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object') return value;
  if (depth >= DEPTH_LIMIT) return '[deeper]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1)]));
}

function bodyOf(req: FastifyRequest) {
  if (req.body === undefined) return null;
  try {
    return JSON.stringify(redact(req.body)).slice(0, BODY_LIMIT);
  } catch {
    return '[unreadable]';
  }
}

/** Who made a call that carries no token: the account named in a sign-in body, or the owner of a mail token. */
async function callerOf(deps: AppDeps, req: FastifyRequest, tier: Tier | 'any') {
  const body = (req.body ?? {}) as { account?: unknown; token?: unknown };
  if (tier !== 'any' && typeof body.account === 'string') return findAccountByEmail(deps.db, tier, body.account);
  if (typeof body.token === 'string') {
    const accountId = await mailTokenOwner(deps.db, sha256(body.token));
    return accountId === undefined ? undefined : findAccount(deps.db, accountId);
  }
  return undefined;
}

/**
 * Writes every mutating call of the contract to the operation log, refused or not: account, proxy, method,
 * URL, request id, status, code, client address and the body with secrets removed. Log type a, c or u by tier.
 */
export function auditRecorder(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      try {
        req.auditCode = (JSON.parse(payload) as { code?: number }).code;
      } catch {
        // not JSON: no code to keep
      }
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const def = req.routeDef;
    if (!def || def.method === 'GET' || def.readOnly || def.auth === 'node') return;
    try {
      const principal = req.principal;
      const known = principal ?? req.tokenCaller;
      const account = known ? await findAccount(deps.db, known.accountId) : await callerOf(deps, req, def.tier).catch(() => undefined);
      const tier = known?.tier ?? account?.auth ?? (def.tier === 'any' ? undefined : def.tier);
      if (!tier) return;
      const proxy = principal?.proxyAccountId ? await findAccount(deps.db, principal.proxyAccountId) : undefined;
      const body = bodyOf(req);
      await insertAuditLine(deps.db, {
        type: accountSchemas.AUDIT_TYPES[tier],
        account_id: account?.id ?? null,
        account_name: account?.email ?? null,
        proxy_account_id: proxy?.id ?? null,
        proxy_name: proxy?.email ?? null,
        method: req.method,
        url: req.url.split('?')[0],
        req_id: String(req.id),
        status: reply.statusCode,
        code: req.auditCode ?? null,
        ip: req.ip,
        body,
      });
    } catch (err) {
      req.log.error({ err }, 'operation log write failed');
    }
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    auditCode?: number;
  }
}
