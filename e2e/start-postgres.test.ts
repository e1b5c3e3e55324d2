import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredInCi } from '../apps/agent/src/test/required-in-ci';
import { api, startServer, type Server } from './harness';
import { until } from './tenants';

const ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
async function pgReachable() {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}
const reachable = requiredInCi(await pgReachable(), `npm start on PostgreSQL needs PostgreSQL at ${ADMIN_URL}`);

const database = `ek_e2e_${process.pid}`;
const admin = async (query: string) => {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(query);
  await c.end();
};

(reachable ? describe : describe.skip)('npm start on PostgreSQL without SMTP', () => {
  let server: Server;
  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    server = await startServer({ DATABASE_URL: url.toString() }, { readme: true });
  });
  afterAll(async () => {
    await server?.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('migrates PostgreSQL, prints the generated root admin password once, and signs in with the code from the log', async () => {
    expect((await api(server, 'GET', 'health')).body.data.database).toBe('postgres');
    const password = /Password \(shown once[^)]*\): (\S+)/.exec(server.output())?.[1];
    expect(password).toBeTruthy();
    const step1 = await api(server, 'POST', 'admin/login', { body: { account: 'admin@edgekeep.local', password } });
    expect(step1.body.data.login2FAType).toBe(0);
    const code = await until('the sign-in code in the log', async () => /sign-in code for admin@edgekeep\.local: (\d{6})/.exec(server.output())?.[1]);
    const outbox = fs.readdirSync(path.join(server.dataDir, 'outbox'));
    expect(outbox.some((f) => f.endsWith('.eml'))).toBe(true);
    const step2 = await api(server, 'POST', 'admin/code', { body: { account: 'admin@edgekeep.local', onePassKey: step1.body.data.onePassKey, code } });
    expect(step2.status).toBe(200);
    expect(server.output().split(password!).length).toBe(2);
  });
});
