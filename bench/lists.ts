import { sql } from 'kysely';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../apps/agent/src/test/servers';
import { makeInfra } from '../apps/api/test/fixtures';
import { call, startTestApp } from '../apps/api/test/harness';

const ROOT = join(import.meta.dirname, '..');
/** Domains per site: the most one site may carry (ITEM_LIST_MAX), so 100,000 domains take 20 sites. */
const PER_SITE = 5000;
/** Load on each call before it is measured. */
const WARM_UP_SECONDS = 2;

type Load = { requestsPerSec: number; p50: number; p99: number; errors: number; non2xx: number };

/** autocannon in a process of its own: `connections` at once for `seconds`. */
async function load(url: string, o: { token?: string; connections: number; seconds: number }): Promise<Load> {
  const args = ['autocannon', '--json', '-c', String(o.connections), '-d', String(o.seconds), ...(o.token ? ['-H', `authorization=Bearer ${o.token}`] : []), url];
  const { stdout } = await promisify(execFile)('npx', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number };
  return { requestsPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** A bare Fastify in a process of its own, answering GET / with the file's text as JSON. */
async function startBare(file: string) {
  const port = await freePort();
  const script = `const f = require('fastify')(); const body = require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8');
    f.get('/', (_q, r) => r.type('application/json').send(body)); f.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('up'));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill())) };
}

/** Waits until the API answers a health check within 50 ms: the load of the last run has drained. */
async function drained(base: string) {
  for (let i = 0; i < 600; i++) {
    const t = performance.now();
    await fetch(`${base}/health`).catch(() => undefined);
    if (performance.now() - t < 50) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The API's lists at 100,000 domains (20 sites of 5,000 under one user of one client), on the tests' database (SQLite,
 * or PostgreSQL with EK_TEST_DB=postgres): the console's list and detail calls under 50 connections against a bare
 * Fastify answering the same body, in the same run. The ratio is the API's rate over the bare server's.
 */
export const lists = async ({ domains = 100_000, connections = 50, seconds = 10 }: { domains?: number; connections?: number; seconds?: number } = {}) => {
  const t = await startTestApp({ LOG_LEVEL: 'warn' });
  const dir = await mkdtemp(join(tmpdir(), 'ek-bench-lists-'));
  try {
    const f = await makeInfra(t);
    const sites = [f.a.site];
    const seeded = performance.now();
    const siteCount = Math.ceil(domains / PER_SITE);
    for (let s = 1; s < siteCount; s++) {
      sites.push((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: `bulk-${s}`, productID: f.a.product, userID: f.userA.id } })).body.data.id as number);
    }
    const at = new Date().toISOString();
    for (let i = 0; i < domains; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, domains - i) }, (_, k) => {
        const n = i + k;
        return { site_id: sites[Math.floor(n / PER_SITE)], name: `d${n}.bulk.example.com`, status: 1 as const, protocol: 'http' as const, force_ssl: 0 as const, hsts: 0 as const, tags: '[]', certificate_id: null, created_at: at, updated_at: at };
      });
      const ids = await t.deps.db.insertInto('domains').values(rows).returning('id').execute();
      await t.deps.db
        .insertInto('upstreams')
        .values(ids.map(({ id }) => ({ domain_id: id, host: '192.0.2.10', port: 80, weight: 1, backup: 0 as const, max_fails: 1, fail_timeout: 10, enabled: 1 as const, hash: '', keepalive: 0 })))
        .execute();
    }
    // PostgreSQL plans by its statistics of the tables, which autovacuum brings up to date within a minute of a load
    // this size: the bench does it at once rather than measure the plans of empty tables
    if (t.deps.dialect === 'postgres') await sql`ANALYZE`.execute(t.deps.db);
    console.log(`lists: ${domains} domains in ${siteCount} sites seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}/api/v1`;
    const calls = {
      'client domains, page 1': { url: `${base}/client/domains?page=1&pageSize=20`, token: f.tokens.clientA },
      'client domains, page 900': { url: `${base}/client/domains?page=900&pageSize=20`, token: f.tokens.clientA },
      'site domains, page 1': { url: `${base}/user/site/${sites[0]}/domains?page=1&pageSize=20`, token: f.tokens.userA },
      'site domains, page 200': { url: `${base}/user/site/${sites[0]}/domains?page=200&pageSize=20`, token: f.tokens.userA },
      'user sites, page 1': { url: `${base}/user/sites?page=1&pageSize=20`, token: f.tokens.userA },
      'a site': { url: `${base}/user/site/${sites[0]}`, token: f.tokens.userA },
      "a site's domain settings, page 1": { url: `${base}/user/site/${sites[0]}/domain/settings?page=1&pageSize=20`, token: f.tokens.userA },
    };
    const results: Record<string, Load & { bare: Load; ratio: number; bytes: number }> = {};
    for (const [name, c] of Object.entries(calls)) {
      const res = await fetch(c.url, { headers: { authorization: `Bearer ${c.token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 200)}`);
      await writeFile(join(dir, 'body.json'), body);
      const bare = await startBare(join(dir, 'body.json'));
      const alone = await load(bare.url, { connections, seconds }).finally(() => bare.stop());
      // unmeasured: the first calls of a route in this process (the app runs in it, just after seeding) compile its code
      await load(c.url, { token: c.token, connections, seconds: WARM_UP_SECONDS });
      await drained(base);
      const api = await load(c.url, { token: c.token, connections, seconds });
      results[name] = { ...api, bare: alone, ratio: api.requestsPerSec / alone.requestsPerSec, bytes: body.length };
      console.log(
        `lists, ${name} (${(body.length / 1024).toFixed(0)} KB): ${api.requestsPerSec.toFixed(0)} req/s, p50 ${api.p50} ms, p99 ${api.p99} ms` +
          ` · bare Fastify ${alone.requestsPerSec.toFixed(0)} req/s, p99 ${alone.p99} ms · ratio ${(api.requestsPerSec / alone.requestsPerSec).toFixed(3)}` +
          (api.errors || api.non2xx ? ` · ${api.errors} errors, ${api.non2xx} non-2xx` : '') +
          ` · load average ${loadavg()[0].toFixed(1)}`,
      );
    }
    return results;
  } finally {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
};
