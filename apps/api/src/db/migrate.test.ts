import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lane, startTestApp, type TestApp } from '../../test/harness';
import { migrateDownAll, migrateToLatest } from './migrate';

lane('migrations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('go all the way down and up again on this dialect', async () => {
    const handle = { db: t.deps.db, dialect: t.deps.dialect };
    await migrateDownAll(handle);
    const tables = await t.deps.db.introspection.getTables();
    expect(tables.map((x) => x.name).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
    const applied = await migrateToLatest(handle);
    expect(applied.length).toBeGreaterThan(0);
    expect(await migrateToLatest(handle)).toEqual([]);
    await sql`select count(*) from accounts`.execute(t.deps.db);
  });
});
