import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { hearWrites, now, onWrite, recordReads, sqliteFileOf } from '../db';
import { keepAnswer, keptAnswer } from './kept-answers';
import { useInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';

const upstreams = [{ host: '192.0.2.10' }];

/**
 * Renames a site's domains in a way the app does not hear: SQLite, on the app's own connection rather than through its
 * database; PostgreSQL, from a connection whose triggers do not fire (`session_replication_role`).
 */
async function unheardRename(t: TestApp, site: number, name: string) {
  const file = sqliteFileOf(t.deps.db);
  if (file) return void file.prepare(`UPDATE domains SET name = ? WHERE site_id = ?`).run(name, site);
  const client = new pg.Client({ connectionString: t.deps.config.databaseUrl });
  await client.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query(`UPDATE domains SET name = $1 WHERE site_id = $2`, [name, site]);
  } finally {
    await client.end();
  }
}

/** Resolves once `db` keeps answers: on PostgreSQL, once it listens for writes. */
async function keeping(db: TestApp['deps']['db']) {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    await keepAnswer(db, 'probe', async (read) => (await read.selectFrom('zones').select('id').execute(), 'kept'));
    if ((await keptAnswer(db, 'probe')) === 'kept') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('answers are not kept');
}

/**
 * A kept answer (`registerRoute(…, { kept: true })`) is what the database holds at each call: every write seen at the
 * next call, whoever makes it: on PostgreSQL, whichever instance or connection makes it. The app here keeps
 * answers as a server does (`KEPT_ANSWERS=on`); every other test's app checks each kept answer it would send against
 * the database (`check`).
 */
lane('kept answers', () => {
  const ctx = useInfra({ KEPT_ANSWERS: 'on' });
  const siteDomains = (token = ctx.f.tokens.userA, site = ctx.f.a.site) => call(ctx.t, 'GET', `user/site/${site}/domains?page=1&pageSize=20`, { token });
  const names = async (res: ReturnType<typeof siteDomains>) => ((await res).body.data as { name: string }[]).map((d) => d.name).sort();

  it('answers a domain added, renamed and removed through the API at the next call', async () => {
    expect(await names(siteDomains())).toEqual([]);
    const added = await call(ctx.t, 'POST', `user/site/${ctx.f.a.site}/domains`, { token: ctx.f.tokens.userA, body: { domains: ['kept-1.example.com'], upstreams } });
    expect(added.status).toBe(200);
    expect(await names(siteDomains())).toEqual(['kept-1.example.com']);
    // the sites list counts the site's domains: a write to domains reaches it through the count
    const sites = async () => (await call(ctx.t, 'GET', 'user/sites?page=1&pageSize=20', { token: ctx.f.tokens.userA })).body.data[0].domainCount;
    expect(await sites()).toBe(1);
    await call(ctx.t, 'POST', `user/site/${ctx.f.a.site}/domains`, { token: ctx.f.tokens.userA, body: { domains: ['kept-2.example.com'], upstreams } });
    expect(await sites()).toBe(2);
    expect(await names(siteDomains())).toEqual(['kept-1.example.com', 'kept-2.example.com']);
    const [first] = (await siteDomains()).body.data;
    const removed = await call(ctx.t, 'DELETE', `user/site/${ctx.f.a.site}/domains`, { token: ctx.f.tokens.userA, body: { ids: [first.id] } });
    expect(removed.status).toBe(200);
    expect((await siteDomains()).body.data.map((d: { id: number }) => d.id)).not.toContain(first.id);
    expect(await sites()).toBe(1);
  });

  it("never answers one caller's kept answer to another: the same URL is each caller's own", async () => {
    const url = 'user/sites?page=1&pageSize=20';
    const mine = (await call(ctx.t, 'GET', url, { token: ctx.f.tokens.userA })).body.data.map((s: { id: number }) => s.id);
    const theirs = (await call(ctx.t, 'GET', url, { token: ctx.f.tokens.userB })).body.data.map((s: { id: number }) => s.id);
    expect(mine).toEqual([ctx.f.a.site]);
    expect(theirs).toEqual([ctx.f.b.site]);
    // another tenant's site by its id: refused, though the same URL's answer is kept for its owner
    expect((await siteDomains(ctx.f.tokens.userA)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await siteDomains(ctx.f.tokens.userB)).status).toBe(404);
  });

  it('still refuses a caller whose session ended, though its answer was kept', async () => {
    expect((await siteDomains()).status).toBe(200);
    await ctx.t.deps.db.updateTable('sessions').set({ revoked_at: now() }).where('account_id', '=', ctx.f.userA.id).execute();
    expect((await siteDomains()).body.code).toBe(101013);
    await ctx.t.deps.db.updateTable('sessions').set({ revoked_at: null }).where('account_id', '=', ctx.f.userA.id).execute();
    expect((await siteDomains()).status).toBe(200);
  });

  it("answers a certificate's domains as expired from its expiry on, though no table was written", async () => {
    const at = now();
    const [cert] = await ctx.t.deps.db
      .insertInto('certificates')
      .values({ site_id: ctx.f.a.site, name: 'soon', chain: '', key_sealed: '', subject: 'CN=kept', names: '[]', issuer: 'test', not_before: at, not_after: new Date(Date.now() + 1500).toISOString(), created_at: at, updated_at: at })
      .returning('id')
      .execute();
    await ctx.t.deps.db.updateTable('domains').set({ certificate_id: cert.id }).where('site_id', '=', ctx.f.a.site).execute();
    const statuses = async () => (await siteDomains()).body.data.map((d: { certStatus: string }) => d.certStatus);
    expect(await statuses()).toEqual(['valid']);
    expect(await statuses()).toEqual(['valid']);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await statuses()).toEqual(['expired']);
  });

  it("keeps a user's lists of sites and domains and its site's options and ports across a blacklist entry added, closed and removed (the revisions are marked apart)", async () => {
    const sent = async (route: string) => (await ctx.t.deps.metrics.keptAnswers.get()).values.find((v) => v.labels.route === route && v.labels.outcome === 'sent')?.value ?? 0;
    const get = (url: string) => () => call(ctx.t, 'GET', url, { token: ctx.f.tokens.userA });
    const blacklist = `user/site/${ctx.f.a.site}/firewall/setting/blacklists`;
    const reads: [string, () => Promise<{ status: number; body: { data?: unknown } }>][] = [
      ['user/sites', get('user/sites?page=1&pageSize=20')],
      ['user/site/{siteId}/domains', siteDomains],
      ['user/site/{siteId}/settings', get(`user/site/${ctx.f.a.site}/settings`)],
      ['user/site/{siteId}/zonePorts', get(`user/site/${ctx.f.a.site}/zonePorts`)],
    ];
    // read until each is sent as kept (the first read keeps it)
    const kept = async (route: string, read: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) {
        const before = await sent(route);
        await read();
        if ((await sent(route)) > before) return;
      }
      throw new Error(`${route} is not kept`);
    };
    await keeping(ctx.t.deps.db);
    // the blacklist listed before, as a user does before adding to it
    expect((await call(ctx.t, 'GET', `${blacklist}?page=1&pageSize=20`, { token: ctx.f.tokens.userA })).body.data).toEqual([]);
    for (const [route, read] of reads) await kept(route, read);
    const before = await Promise.all(reads.map(([route]) => sent(route)));
    const answers = await Promise.all(reads.map(async ([, read]) => (await read()).body.data));
    const zoneRevision = async () => Number((await ctx.t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', ctx.f.a.zone).executeTakeFirstOrThrow()).revision);
    const zoneBefore = await zoneRevision();
    const added = await call(ctx.t, 'POST', blacklist, { token: ctx.f.tokens.userA, body: { ips: '198.51.100.9', memo: 'kept' } });
    expect(added.status).toBe(200);
    const ids = added.body.data.map((e: { id: number }) => e.id);
    expect((await call(ctx.t, 'PUT', `${blacklist}/enable`, { token: ctx.f.tokens.userA, body: { ids, enabled: false } })).status).toBe(200);
    expect((await call(ctx.t, 'DELETE', blacklist, { token: ctx.f.tokens.userA, body: { ids } })).status).toBe(200);
    const { revision } = await ctx.t.deps.db.selectFrom('site_edge_revisions').select('revision').where('site_id', '=', ctx.f.a.site).executeTakeFirstOrThrow();
    expect(revision).toBeGreaterThan(0);
    expect(await zoneRevision()).toBeGreaterThan(zoneBefore);
    for (const [i, [route, read]] of reads.entries()) {
      const answer = await read();
      expect(answer.status).toBe(200);
      expect(answer.body.data, route).toEqual(answers[i]);
      expect(await sent(route), route).toBe(before[i] + 2);
    }
    // the list the change wrote is read afresh
    expect((await call(ctx.t, 'GET', `${blacklist}?page=1&pageSize=20`, { token: ctx.f.tokens.userA })).body.data).toEqual([]);
  });

  it('sends a kept answer again without reading the database', async () => {
    const before = await names(siteDomains());
    await unheardRename(ctx.t, ctx.f.a.site, 'unheard.example.com');
    expect(await names(siteDomains())).toEqual(before);
    await ctx.t.deps.db.updateTable('domains').set({ updated_at: now() }).where('site_id', '=', ctx.f.a.site).execute();
    expect(await names(siteDomains())).toEqual(['unheard.example.com']);
  });

  describe('checked, as in the tests', () => {
    const checked = useInfra({ KEPT_ANSWERS: 'check' });

    it('fails a read that runs a statement around the handle it was given, and keeps nothing of it', async () => {
      const db = checked.t.deps.db;
      await keeping(db);
      const around = keepAnswer(db, 'around', async (read) => {
        await read.selectFrom('sites').select('id').execute();
        return JSON.stringify(await db.selectFrom('domains').select('id').execute());
      });
      await expect(around).rejects.toThrow('a read ran statements outside the handle it was given (tables domains)');
      expect(await keptAnswer(db, 'around')).toBeUndefined();
      // through the handle alone it is kept
      await keepAnswer(db, 'through', async (read) => JSON.stringify(await read.selectFrom('domains').select('id').execute()));
      expect(await keptAnswer(db, 'through')).toBe('[]');
    });

    it('refuses a kept answer that is not what the database holds, as an error', async () => {
      const url = `user/site/${checked.f.a.site}/domains?page=1&pageSize=20`;
      const list = () => call(checked.t, 'GET', url, { token: checked.f.tokens.userA });
      await call(checked.t, 'POST', `user/site/${checked.f.a.site}/domains`, { token: checked.f.tokens.userA, body: { domains: ['checked.example.com'], upstreams } });
      expect((await list()).status).toBe(200);
      // on PostgreSQL answers are kept once the app listens for writes
      await keeping(checked.t.deps.db);
      expect((await list()).status).toBe(200);
      expect((await list()).status).toBe(200);
      await unheardRename(checked.t, checked.f.a.site, 'unheard.example.com');
      expect((await list()).status).toBe(500);
      expect(checked.t.logLines.join('')).toContain(`the answer kept for /api/v1/${url} is not what the database holds`);
      // the answer read then is kept in its place
      expect((await list()).body.data.map((d: { name: string }) => d.name)).toEqual(['unheard.example.com']);
    });
  });

  it("drops an answer when a write's triggers or foreign keys change the tables it read", async () => {
    const db = ctx.t.deps.db;
    await keeping(db);
    const versions = (read: typeof db) => read.selectFrom('sites').select('domains_version').where('id', '=', ctx.f.a.site).execute();
    const body = await keepAnswer(db, 'versions', async (read) => JSON.stringify(await versions(read)));
    expect(await keptAnswer(db, 'versions')).toBe(body);
    // a domain's write raises its site's version through a trigger: the write names domains alone
    const at = now();
    const [d] = await db.insertInto('domains').values({ site_id: ctx.f.a.site, name: 'side.example.com', status: 1, protocol: 'http', force_ssl: 0, hsts: 0, tags: '[]', certificate_id: null, created_at: at, updated_at: at }).returning('id').execute();
    expect(await keptAnswer(db, 'versions')).toBeUndefined();
    await db.insertInto('upstreams').values({ domain_id: d.id, host: '192.0.2.10', port: 80, weight: 1, backup: 0, max_fails: 1, fail_timeout: 10, enabled: 1, hash: '', keepalive: 0 }).execute();
    const origins = (read: typeof db) => read.selectFrom('upstreams').select('host').where('domain_id', '=', d.id).execute();
    await keepAnswer(db, 'origins', async (read) => JSON.stringify(await origins(read)));
    expect(await keptAnswer(db, 'origins')).toBe('[{"host":"192.0.2.10"}]');
    // the domain's deletion deletes its origins through their foreign key
    await db.deleteFrom('domains').where('id', '=', d.id).execute();
    expect(await keptAnswer(db, 'origins')).toBeUndefined();
  });

  describe.runIf(process.env.EK_TEST_DB === 'postgres')('on PostgreSQL', () => {
    const other = async (statements: string[]) => {
      const client = new pg.Client({ connectionString: ctx.t.deps.config.databaseUrl });
      await client.connect();
      try {
        for (const text of statements) await client.query(text, text.includes('$1') ? [ctx.f.a.site] : []);
      } finally {
        await client.end();
      }
    };

    const namesOnce = async () => [...new Set(await names(siteDomains()))];

    it('answers a write made by another connection (the command line) at the next call', async () => {
      expect((await siteDomains()).status).toBe(200);
      await other([`UPDATE domains SET name = 'psql.example.com' WHERE site_id = $1`]);
      expect(await namesOnce()).toEqual(['psql.example.com']);
    });

    it('answers a write made through another instance on the same database at the next call', async () => {
      const b = await startTestApp({ DATABASE_URL: ctx.t.deps.config.databaseUrl! }, { keysFrom: ctx.t });
      try {
        const [domain] = (await siteDomains()).body.data;
        // each change through B, each list through A right after, as a console behind a balancer may
        for (let i = 0; i < 20; i++) {
          const status = i % 2;
          const changed = await call(b, 'PUT', `user/site/${ctx.f.a.site}/domain`, { token: ctx.f.tokens.userA, body: { id: domain.id, status } });
          expect(changed.status).toBe(200);
          expect((await siteDomains()).body.data.map((d: { status: number }) => d.status)).toEqual([status]);
        }
      } finally {
        await b.close();
      }
    });

    it("tells another instance's transaction once, when it commits: until then the app answers, and keeps, what was committed", async () => {
      const b = await startTestApp({ DATABASE_URL: ctx.t.deps.config.databaseUrl! }, { keysFrom: ctx.t });
      const listener = new pg.Client({ connectionString: ctx.t.deps.config.databaseUrl });
      const notices: string[][] = [];
      listener.on('notification', (m) => notices.push((m.payload ?? '').replace(/^\w+:/, '').split(',').sort()));
      try {
        await hearWrites(b.deps.db);
        await listener.connect();
        await listener.query('LISTEN edgekeep_writes');
        const before = await namesOnce();
        await b.deps.db.transaction().execute(async (tx) => {
          await tx.updateTable('domains').set({ name: 'committed.example.com' }).where('site_id', '=', ctx.f.a.site).execute();
          await tx.updateTable('sites').set({ updated_at: now() }).where('id', '=', ctx.f.a.site).execute();
          expect(await namesOnce()).toEqual(before);
          expect(await namesOnce()).toEqual(before);
        });
        expect(await namesOnce()).toEqual(['committed.example.com']);
        // one notice, with both tables; the domains trigger's write to sites (an EdgeKeep connection's) sent none
        await listener.query('SELECT 1');
        expect(notices).toEqual([['domains', 'sites']]);
      } finally {
        await listener.end();
        await b.close();
      }
    });

    it('keeps nothing it cannot hear: while its listening connection is gone, and of what was written then', async () => {
      expect((await siteDomains()).status).toBe(200);
      await other([
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'edgekeep write notices'`,
        `UPDATE domains SET name = 'unlistened.example.com' WHERE site_id = $1`,
      ]);
      expect(await namesOnce()).toEqual(['unlistened.example.com']);
      // it listens again within moments, and keeps answers again
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        await siteDomains();
        const before = await names(siteDomains());
        await unheardRename(ctx.t, ctx.f.a.site, 'kept-again.example.com');
        if ((await names(siteDomains()))[0] === before[0]) return;
      }
      throw new Error('answers were not kept again after the listening connection came back');
    });
  });

  describe.runIf(process.env.EK_TEST_DB !== 'postgres')('on SQLite', () => {
    it('records the tables the statements name, raw SQL and subqueries too', async () => {
      const db = ctx.t.deps.db;
      const { reads } = await recordReads(db, async (read) => {
        await read.selectFrom('domains').innerJoin('sites', 'sites.id', 'domains.site_id').select('domains.id').where('sites.id', 'in', read.selectFrom('products').select('id')).execute();
        await sql`SELECT count(*) FROM upstreams u, certificates c WHERE u.id = c.id`.execute(read);
        // through a transaction of the handle too
        await read.transaction().execute((tx) => tx.selectFrom('node_groups').select('id').execute());
      });
      // a statement run meanwhile by another call is not the read's
      await Promise.all([
        recordReads(db, (read) => read.selectFrom('roles').select('id').execute()),
        recordReads(db, async (read) => (await read.selectFrom('zones').select('id').execute()).length).then(({ reads: other }) => expect([...other.tables]).toEqual(['zones'])),
      ]);
      expect([...reads.tables].sort()).toEqual(['certificates', 'domains', 'node_groups', 'products', 'sites', 'upstreams']);
      expect(reads.known).toBe(true);
    });

    it('answers a write made by another connection (the command line, another process) at the next call', async () => {
      expect((await siteDomains()).status).toBe(200);
      const other = new SQLite(path.join(ctx.t.dataDir, 'edgekeep.sqlite'));
      try {
        other.prepare(`UPDATE domains SET name = 'elsewhere.example.com' WHERE site_id = ?`).run(ctx.f.a.site);
      } finally {
        other.close();
      }
      expect(await names(siteDomains())).toEqual(['elsewhere.example.com']);
    });
  });

  it('keeps answers by default, on SQLite and on PostgreSQL, unless told not to', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/x' }).keptAnswers).toBe('on');
    expect(loadConfig({ DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://127.0.0.1/x' }).keptAnswers).toBe('on');
    expect(loadConfig({ DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://127.0.0.1/x', KEPT_ANSWERS: 'off' }).keptAnswers).toBe('off');
    expect(loadConfig({ DATA_DIR: '/tmp/x', KEPT_ANSWERS: 'off' }).keptAnswers).toBe('off');
  });

  it("hears raw SQL's writes: the table it names, or every table when it cannot be told", async () => {
    const db = ctx.t.deps.db;
    const told: string[][] = [];
    onWrite(db, (tables) => told.push([...tables]));
    await sql`UPDATE nodes SET name = name WHERE id = 0`.execute(db);
    await sql`WITH none AS (SELECT 0 AS id) UPDATE nodes SET name = name WHERE id IN (SELECT id FROM none)`.execute(db);
    await sql`SELECT count(*) FROM nodes`.execute(db);
    // each told before it runs and once it has run; on PostgreSQL also at its commit, with the tables its text names
    const committed = sqliteFileOf(db) ? [] : [['nodes']];
    expect(told).toEqual([['nodes'], ...committed, ['nodes'], ['*'], ...committed, ['*']]);
  });
});
