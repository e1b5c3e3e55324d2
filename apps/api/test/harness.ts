import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Tier } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { describe } from 'vitest';
import { requiredInCi } from '../../agent/src/test/required-in-ci';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { AppDeps } from '../src/deps';
import type { Principal } from '../src/http/auth';
import { createAccount, type NewAccount } from '../src/modules/accounts/service';
import { closeRuntime, openRuntime } from '../src/runtime';
import { grantLicense } from './license-fixtures';

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database for one test file, or undefined on the SQLite lane. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  return process.env.EK_TEST_DB === 'postgres' ? createPgDatabase() : undefined;
}

/** A new, empty PostgreSQL database on the test server; `drop()` removes it once its connections are gone. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ek_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      // The pool's clients finish closing after pool.end() resolves; forcing the drop under them fails them mid-close.
      for (let i = 0; i < 100; i++) {
        const open = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (open.rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Whether the PostgreSQL lane can run here; in CI it must. */
export async function postgresReachable() {
  if (process.env.EK_TEST_DB !== 'postgres') return true;
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return requiredInCi(false, `the PostgreSQL lane needs PostgreSQL at ${PG_ADMIN_URL}`);
  }
}

/** `describe` on the SQLite lane and where PostgreSQL answers; `describe.skip` on a machine without it (never in CI). */
export const lane = (await postgresReachable()) ? describe : describe.skip;

export type TestApp = {
  app: Awaited<ReturnType<typeof buildApp>>;
  deps: AppDeps;
  dataDir: string;
  logLines: string[];
  close(): Promise<void>;
  /** Stops this app as a stopping server does and starts a new one on the same data dir and database. */
  restart(): Promise<TestApp>;
};

/**
 * The real app on a real database (a SQLite file in a temp directory, or a fresh PostgreSQL database on the
 * postgres lane), with mail going to the outbox and every log line kept for inspection.
 */
export async function startTestApp(env: Record<string, string> = {}, opts: { extend?: (app: FastifyInstance) => void; keysFrom?: TestApp } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-api-'));
  // another instance of the same platform: its tokens are good here
  if (opts.keysFrom) fs.cpSync(path.join(opts.keysFrom.dataDir, 'keys'), path.join(dataDir, 'keys'), { recursive: true });
  return boot({ dataDir, database: await freshDatabase(), env, extend: opts.extend });
}

type Boot = { dataDir: string; database?: { url: string; drop: () => Promise<void> }; env: Record<string, string>; extend?: (app: FastifyInstance) => void };

async function boot(b: Boot): Promise<TestApp> {
  const { dataDir, database } = b;
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database?.url, WEB_DIST: '', KEPT_ANSWERS: process.env.KEPT_ANSWERS, ...b.env });
  const logLines: string[] = [];
  // every line from debug up, unless the caller names a level (a benchmark asks for the production-like quiet)
  const log = pino({ level: b.env.LOG_LEVEL ?? 'debug' }, new Writable({ write: (chunk, _enc, cb) => (logLines.push(String(chunk)), cb()) }));
  const deps: AppDeps = await openRuntime(config, log);
  const app = await buildApp(deps);
  b.extend?.(app);
  await app.ready();
  const stop = async () => {
    await app.close();
    await closeRuntime(deps);
  };
  return {
    app,
    deps,
    dataDir,
    logLines,
    async close() {
      await stop();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await stop();
      return boot(b);
    },
  };
}

/** The newest mail in the outbox to an address. */
export function lastMailTo(t: TestApp, to: string) {
  const dir = path.join(t.dataDir, 'outbox');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  for (const file of files.reverse()) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    if (text.includes(`To: ${to}`)) return text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  }
  throw new Error(`no mail to ${to}`);
}

export const mailedCode = (t: TestApp, to: string) => {
  const match = /code is (\d{6})/.exec(lastMailTo(t, to));
  if (!match) throw new Error(`no code in the mail to ${to}`);
  return match[1];
};

export const PASSWORD = 'correct horse battery';

export async function makeAccount(t: TestApp, input: Partial<NewAccount> & { auth: Tier; email: string }) {
  return createAccount(t.deps, { name: input.email.split('@')[0].replace(/[^A-Za-z0-9-]/g, '-'), password: PASSWORD, ...input });
}

type CallOpts = { token?: string; body?: unknown; headers?: Record<string, string> };

/** One API call; answers status and parsed JSON body. */
export async function call(t: TestApp, method: string, url: string, opts: CallOpts = {}) {
  const res = await t.app.inject({
    method: method as 'GET',
    url: `/api/v1/${url}`,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
    ...(opts.body === undefined ? {} : { payload: opts.body as object }),
  });
  return { status: res.statusCode, body: res.json() as { data?: any; total?: number; code?: number; message?: string; extra?: any; errors?: any }, headers: res.headers };
}

/** Signs in through both steps with the mailed code; answers the tokens. */
export async function signIn(t: TestApp, tier: Tier, email: string, password = PASSWORD, headers?: Record<string, string>) {
  const step1 = await call(t, 'POST', `${tier}/login`, { body: { account: email, password }, headers });
  if (step1.status !== 200) throw new Error(`login failed: ${JSON.stringify(step1.body)}`);
  const code = step1.body.data.login2FAType === 2 ? step1.body.data.code : mailedCode(t, email);
  const step2 = await call(t, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code }, headers });
  if (step2.status !== 200) throw new Error(`code failed: ${JSON.stringify(step2.body)}`);
  return step2.body.data as { accessToken: string; refreshToken: string; tokenType: 'Bearer' };
}

/**
 * Two tenants to test isolation with: the root admin, clients A and B (each holding an unlimited license unless
 * `licensed: false`), each
 * with a root user. Answers the accounts and their access tokens.
 */
export async function makeTenants(t: TestApp, opts: { licensed?: boolean } = {}) {
  const admin = await makeAccount(t, { auth: 'admin', email: 'root@example.com', isRoot: true });
  const clientA = await makeAccount(t, { auth: 'client', email: 'client-a@example.com', isRoot: true });
  const clientB = await makeAccount(t, { auth: 'client', email: 'client-b@example.com', isRoot: true });
  const userA = await makeAccount(t, { auth: 'user', email: 'user-a@example.com', isRoot: true, clientId: clientA.id });
  const userB = await makeAccount(t, { auth: 'user', email: 'user-b@example.com', isRoot: true, clientId: clientB.id });
  if (opts.licensed !== false) {
    await grantLicense(t.deps, clientA.id);
    await grantLicense(t.deps, clientB.id);
  }
  const tokens = {
    admin: (await signIn(t, 'admin', admin.email)).accessToken,
    clientA: (await signIn(t, 'client', clientA.email)).accessToken,
    clientB: (await signIn(t, 'client', clientB.email)).accessToken,
    userA: (await signIn(t, 'user', userA.email)).accessToken,
    userB: (await signIn(t, 'user', userB.email)).accessToken,
  };
  return { admin, clientA, clientB, userA, userB, tokens };
}

/** A signed-in caller of an account (a root one unless told), as a repository that takes a principal sees it. */
export const asPrincipal = (accountId: number, tier: Tier, isRoot = true): Principal => ({
  accountId,
  tier,
  sessionId: 0,
  sessionKind: 'login',
  proxyAccountId: null,
  isRoot,
  permissions: new Set(),
});

/** The operation-log rows of one request id; the log is written after the answer is sent, so this waits up to 2 s. */
export async function auditRowsOf(t: TestApp, reqId: string) {
  for (let i = 0; ; i++) {
    const rows = await t.deps.db.selectFrom('audit_logs').selectAll().where('req_id', '=', reqId).execute();
    if (rows.length > 0 || i >= 100) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
