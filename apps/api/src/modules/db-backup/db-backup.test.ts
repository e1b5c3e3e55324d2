import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { restoreBackup } from '../../cli/restore';
import { auditRowsOf, call, lane, makeTenants, startTestApp, type TestApp } from '../../../test/harness';
import { DB_BACKUP_JOB } from './service';

const PATH = 'client/setting/system/DBBackup';

lane('database backup', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let dir: string;
  const get = (token: string) => call(t, 'GET', PATH, { token });
  const put = (token: string, body: unknown) => call(t, 'PUT', PATH, { token, body });
  const setting = (o: Record<string, unknown> = {}) => ({ enabled: true, period: 'daily', time: '03:30', path: path.join(dir, 'nightly'), retention: 3, ...o });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-backups-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the defaults, stores a setting whole and creates the path', async () => {
    expect((await get(f.tokens.clientA)).body.data).toMatchObject({ enabled: false, period: 'daily', time: '03:00', retention: 7, lastBackupAt: null, backups: [] });
    const saved = await put(f.tokens.clientA, setting());
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ ...setting(), lastBackupAt: null, lastStatus: null, backups: [] });
    expect(fs.statSync(setting().path).isDirectory()).toBe(true);
    expect((await get(f.tokens.clientA)).body.data).toMatchObject(setting());
  });

  it('refuses bad input with 101003 and changes nothing', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const cases: [Record<string, unknown>, string][] = [
      [{ time: '24:00' }, 'time'],
      [{ time: '3:30' }, 'time'],
      [{ period: 'hourly' }, 'period'],
      [{ retention: 0 }, 'retention'],
      [{ retention: 366 }, 'retention'],
      [{ path: 'relative/dir' }, 'path'],
      [{ path: path.join(file, 'below-a-file') }, 'path'],
    ];
    for (const [bad, field] of cases) {
      const r = await put(f.tokens.clientA, setting(bad));
      expect(r.body.code, JSON.stringify(bad)).toBe(101003);
      expect(JSON.stringify(r.body.extra)).toContain(field);
    }
    const unwritable = await put(f.tokens.clientA, setting({ path: path.join(file, 'x') }));
    expect(unwritable.body.extra.fields[0]).toMatchObject({ field: 'path', message: 'Backup path permissions must be correct' });
    expect((await get(f.tokens.clientA)).body.data).toMatchObject(setting());
  });

  it("keeps each client's setting and backups to itself; a user is refused", async () => {
    const other = await get(f.tokens.clientB);
    expect(other.body.data).toMatchObject({ enabled: false, time: '03:00', backups: [] });
    expect((await call(t, 'POST', `${PATH}/run`, { token: f.tokens.clientB })).body.code).toBe(101003);
    expect((await get(f.tokens.userA)).status).toBe(401);
    expect((await put(f.tokens.userA, setting({ time: '01:00' }))).status).toBe(401);
    expect((await call(t, 'POST', `${PATH}/run`, { token: f.tokens.userA })).status).toBe(401);
    expect((await get(f.tokens.clientA)).body.data).toMatchObject(setting());
  });

  it('backs up now and keeps the newest `retention` copies', async () => {
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(t, 'POST', `${PATH}/run`, { token: f.tokens.clientA });
      expect(r.status).toBe(200);
      expect(r.body.data.bytes).toBeGreaterThan(0);
      made.push(r.body.data.file);
    }
    const answer = (await get(f.tokens.clientA)).body.data;
    expect(answer.lastStatus).toBe('ok');
    expect(answer.backups.map((b: { file: string }) => b.file)).toEqual(made.slice(1).reverse());
    expect(fs.existsSync(made[0])).toBe(false);
  });

  it('the scheduler job backs up when the set time has passed since the last run', async () => {
    const longAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await t.deps.db.updateTable('db_backup_settings').set({ updated_at: longAgo, last_backup_at: longAgo }).execute();
    expect(await t.deps.scheduler.runNow(DB_BACKUP_JOB)).toBe(true);
    const after = (await get(f.tokens.clientA)).body.data;
    expect(after.lastBackupAt > longAgo).toBe(true);
    expect(after.lastStatus).toBe('ok');
    const before = after.lastBackupAt;
    expect(await t.deps.scheduler.runNow(DB_BACKUP_JOB)).toBe(true);
    expect((await get(f.tokens.clientA)).body.data.lastBackupAt).toBe(before);
  });

  it('a backup restored into a fresh data directory (or database) holds every row', async () => {
    const backup = (await call(t, 'POST', `${PATH}/run`, { token: f.tokens.clientA, headers: { 'x-request-id': 'backup-to-restore' } })).body.data.file as string;
    // The call's own operation-log row is written after the answer, so after the backup.
    expect(await auditRowsOf(t, 'backup-to-restore')).toHaveLength(1);
    const tables = await t.deps.db.introspection.getTables();
    const counts = async (count: (table: string) => Promise<number>) => {
      const out: Record<string, number> = {};
      for (const x of tables) out[x.name] = await count(x.name);
      return out;
    };
    const live = await counts(async (name) => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(t.deps.db)).rows[0].n));
    expect(live.accounts).toBe(5);
    live.audit_logs -= 1;

    if (t.deps.dialect === 'sqlite') {
      const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-restored-'));
      await restoreBackup({ file: backup, dataDir: fresh });
      const db = new SQLite(path.join(fresh, 'edgekeep.sqlite'), { readonly: true });
      const restored = await counts(async (name) => (db.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n);
      const emails = db.prepare('select email from accounts order by id').all();
      db.close();
      fs.rmSync(fresh, { recursive: true, force: true });
      expect(restored).toEqual(live);
      expect(emails).toEqual(await t.deps.db.selectFrom('accounts').select('email').orderBy('id').execute());
      return;
    }
    const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `ek_restore_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      await restoreBackup({ file: backup, dataDir: '', databaseUrl: url.toString() });
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      const restored = await counts(async (table) => Number((await c.query(`select count(*)::int as n from "${table}"`)).rows[0].n));
      const emails = (await c.query('select email from accounts order by id')).rows;
      await c.end();
      expect(restored).toEqual(live);
      expect(emails).toEqual(await t.deps.db.selectFrom('accounts').select('email').orderBy('id').execute());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('keeps paths below BACKUP_ROOT when the operator sets one', async () => {
    const rooted = await startTestApp({ BACKUP_ROOT: path.join(dir, 'root') });
    try {
      const tenants = await makeTenants(rooted);
      const put2 = (p: string) => call(rooted, 'PUT', PATH, { token: tenants.tokens.clientA, body: setting({ path: p }) });
      expect((await put2(path.join(dir, 'root', 'a'))).status).toBe(200);
      for (const outside of [path.join(dir, 'elsewhere'), path.join(dir, 'root', '..', 'escape'), path.join(dir, 'rootx')]) {
        const r = await put2(outside);
        expect(r.body.extra.fields[0], outside).toMatchObject({ field: 'path', message: 'Backup path permissions must be correct' });
      }
      expect((await call(rooted, 'GET', PATH, { token: tenants.tokens.clientA })).body.data.path).toBe(path.join(dir, 'root', 'a'));
      expect(fs.existsSync(path.join(dir, 'elsewhere'))).toBe(false);
    } finally {
      await rooted.close();
    }
  });
});
