import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedAccessMix } from '../../../test/access-mix';
import { makeInfra } from '../../../test/fixtures';
import { asPrincipal, call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { logExportsRepo } from './repo';

const MIN = 60_000;
type Item = { id: number; status: string; rows: number; totalRows: number | null; progress: number; size: number; fileName: string; error: string | null; finishedAt: string | null };

lane('log export', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let mix: Awaited<ReturnType<typeof seedAccessMix>>;
  let span: { startTime: string; endTime: string };
  const apply = (token: string, body: object, tier = 'user') => call(t, 'POST', `${tier}/log/export/file`, { token, body: { type: 'access', ...span, ...body } });
  const get = async (token: string, id: number, tier = 'user') => (await call(t, 'GET', `${tier}/log/export/${id}`, { token })).body.data as Item;
  const settled = async (token: string, id: number, tier = 'user') => {
    for (let i = 0; i < 200; i++) {
      const item = await get(token, id, tier);
      if (item.status !== 'processing') return item;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`export ${id} still processing`);
  };
  const download = (token: string, id: number, tier = 'user') =>
    t.app.inject({ method: 'GET', url: `/api/v1/${tier}/log/export/file/${id}`, headers: { authorization: `Bearer ${token}` } });
  const csvOf = (body: Buffer) => gunzipSync(body).toString('utf8').trimEnd().split('\n');
  const file = (id: number) => path.join(t.dataDir, 'exports', `${id}.csv.gz`);

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    mix = await seedAccessMix(t, f);
    span = { startTime: mix.at(0), endTime: mix.at(30 * MIN) };
    // Room for every export these tests ask for today; the daily limit has its own test.
    await t.deps.db.updateTable('accounts').set({ max_log_export_times: 100 }).where('id', '=', f.userA.id).execute();
  });
  afterAll(() => t.close());

  it('writes the access lines to a gzip CSV file and serves it once completed', async () => {
    const applied = await apply(f.tokens.userA, { siteIDs: [f.a.site] });
    expect(applied.status).toBe(200);
    expect(applied.body.data).toMatchObject({ type: 'access', status: 'processing', startTime: span.startTime, endTime: span.endTime, finishedAt: null });
    const done = await settled(f.tokens.userA, applied.body.data.id);
    expect(done).toMatchObject({ status: 'completed', rows: 6, totalRows: 6, progress: 100, error: null });
    expect(done.finishedAt).not.toBeNull();
    expect(done.size).toBe(fs.statSync(file(done.id)).size);
    const res = await download(f.tokens.userA, done.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    const stamp = (iso: string) => `${iso.slice(0, 16).replace(/[-:]/g, '')}Z`;
    expect(res.headers['content-disposition']).toBe(`attachment; filename="access-log-${stamp(span.startTime)}-${stamp(span.endTime)}.csv.gz"`);
    const [header, ...rows] = csvOf(res.rawPayload);
    expect(header).toBe('time,requestId,siteID,domain,nodeID,remoteIP,country,region,city,isp,asn,protocol,method,uri,status,bytesSent,bytesReceived,requestTime,upstreamTime,cacheStatus,httpVersion,referer,userAgent');
    expect(rows.map((r) => r.split(',')[1])).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
    const r1 = mix.lines.a[0];
    expect(rows[5]).toBe(`${r1.time},r1,${f.a.site},www.a.example,${f.a.node},198.51.100.7,TW,Taipei City,Taipei,HiNet,,https,GET,/index.html,200,1000,200,0.01,0.005,MISS,HTTP/1.1,https://ref.example/page,Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36`);
    const list = await call(t, 'GET', 'user/log/exports', { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 1, data: [{ id: done.id, status: 'completed' }] });
  });

  it('exports the refused lines and the operation log', async () => {
    const waf = await settled(f.tokens.userA, (await apply(f.tokens.userA, { type: 'waf' })).body.data.id);
    const [wafHeader, ...wafRows] = csvOf((await download(f.tokens.userA, waf.id)).rawPayload);
    expect(wafHeader).toMatch(/,userAgent,cause,module,rule,action$/);
    expect(wafRows.map((r) => r.split(',').slice(-4).join(','))).toEqual(['4,5,2,drop', '3,12,7,block']);
    const auditSpan = { startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date().toISOString() };
    const audit = await settled(f.tokens.userA, (await apply(f.tokens.userA, { type: 'audit', ...auditSpan })).body.data.id);
    const [auditHeader, ...auditRows] = csvOf((await download(f.tokens.userA, audit.id)).rawPayload);
    expect(auditHeader).toBe('id,type,accountName,proxyName,method,url,reqID,status,code,ip,body,createdAt');
    // The user's applies before the window ended (access, waf).
    expect(auditRows.filter((r) => r.includes('/log/export/')).map((r) => r.split(',').slice(1, 6).join(','))).toEqual([
      'u,user-a@example.com,,POST,/api/v1/user/log/export/file',
      'u,user-a@example.com,,POST,/api/v1/user/log/export/file',
    ]);
    expect(audit.fileName).toMatch(/^audit-log-/);
  });

  it('refuses bad applies with 101003 and writes nothing', async () => {
    const before = (await call(t, 'GET', 'user/log/exports', { token: f.tokens.userA })).body.total;
    for (const body of [{ startTime: mix.at(-25 * 60 * MIN), endTime: mix.at(0) }, { type: 'dns' }, { endTime: undefined }]) {
      const res = await apply(f.tokens.userA, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 101003]);
    }
    expect((await call(t, 'GET', 'user/log/exports', { token: f.tokens.userA })).body.total).toBe(before);
  });

  it("answers another account's export, or a foreign site, like a missing one", async () => {
    const own = (await call(t, 'GET', 'user/log/exports', { token: f.tokens.userA })).body.data[0].id as number;
    const missing = await call(t, 'GET', 'user/log/export/999999', { token: f.tokens.userB });
    expect(missing.status).toBe(404);
    expect([(await call(t, 'GET', `user/log/export/${own}`, { token: f.tokens.userB })).body]).toEqual([missing.body]);
    expect((await download(f.tokens.userB, own)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', 'user/log/exports', { token: f.tokens.userB, body: { ids: [own] } })).status).toBe(404);
    expect((await call(t, 'POST', 'user/log/export/file/retry', { token: f.tokens.userB, body: { ids: [own] } })).status).toBe(404);
    expect((await apply(f.tokens.userB, { siteIDs: [f.a.site] })).status).toBe(404);
    expect((await call(t, 'GET', 'user/log/exports', { token: f.tokens.userB })).body).toEqual({ data: [], total: 0 });
    expect((await apply(f.tokens.clientA, { siteIDs: [f.b.site] }, 'client')).status).toBe(404);
  });

  it("reaches through the repository only the caller's exports", async () => {
    const mine = logExportsRepo(t.deps.db, asPrincipal(f.userA.id, 'user'));
    const theirs = logExportsRepo(t.deps.db, asPrincipal(f.userB.id, 'user'));
    const [own] = await mine.some([(await mine.page({ page: 1, pageSize: 1 })).data[0].id]);
    await expect(theirs.get([own.id])).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'export not found' } });
    expect(await theirs.some([own.id])).toEqual([]);
    await theirs.markDeleted(own);
    expect((await mine.get([own.id]))[0].status).toBe(own.status);
  });

  it("gives a client exports of its users' lines", async () => {
    const res = await apply(f.tokens.clientA, {}, 'client');
    const done = await settled(f.tokens.clientA, res.body.data.id, 'client');
    expect(done).toMatchObject({ status: 'completed', rows: 7 });
    expect((await download(f.tokens.clientA, done.id, 'client')).statusCode).toBe(200);
  });

  it('deletes an export and its file, keeping the row in the list', async () => {
    const done = await settled(f.tokens.userA, (await apply(f.tokens.userA, {})).body.data.id);
    expect(fs.existsSync(file(done.id))).toBe(true);
    expect((await call(t, 'DELETE', 'user/log/exports', { token: f.tokens.userA, body: { ids: [done.id] } })).status).toBe(200);
    expect(await get(f.tokens.userA, done.id)).toMatchObject({ status: 'deleted' });
    expect(fs.existsSync(file(done.id))).toBe(false);
    const res = await download(f.tokens.userA, done.id);
    expect([res.statusCode, res.json().code]).toEqual([400, 101003]);
    const list = (await call(t, 'GET', 'user/log/exports?pageSize=100', { token: f.tokens.userA })).body.data as Item[];
    expect(list.find((e) => e.id === done.id)?.status).toBe('deleted');
  });

  it('runs a failed export again', async () => {
    const done = await settled(f.tokens.userA, (await apply(f.tokens.userA, {})).body.data.id);
    fs.rmSync(file(done.id));
    await t.deps.db.updateTable('log_exports').set({ status: 'failed', error: 'disk full' }).where('id', '=', done.id).execute();
    const retried = await call(t, 'POST', 'user/log/export/file/retry', { token: f.tokens.userA, body: { ids: [done.id] } });
    expect(retried.body.data).toMatchObject([{ id: done.id, status: 'processing', rows: 0, error: null }]);
    expect(await settled(f.tokens.userA, done.id)).toMatchObject({ status: 'completed', rows: 7, error: null });
    expect(fs.existsSync(file(done.id))).toBe(true);
  });

  it('records apply, remove and retry in the operation log, and nothing else of exports', async () => {
    const urls = (await t.deps.db.selectFrom('audit_logs').select(['method', 'url']).where('url', 'like', '%/log/%').execute()).map((r) => `${r.method} ${r.url}`);
    expect(new Set(urls)).toEqual(new Set(['POST /api/v1/user/log/export/file', 'POST /api/v1/client/log/export/file', 'DELETE /api/v1/user/log/exports', 'POST /api/v1/user/log/export/file/retry']));
  });

  it('refuses a fourth export at once (601001) and one past the daily count (601002)', async () => {
    const base = { account_id: f.userB.id, tier: 'user' as const, type: 'access' as const, status: 'processing' as const, filters: '{"siteIds":[]}', start_time: span.startTime, end_time: span.endTime, created_at: new Date().toISOString(), file_name: 'x.csv.gz', finished_at: null, error: null, rows: 0, total_rows: null, size: 0 };
    // Three runs held by another instance that is still busy with them.
    const busy = await t.deps.db.insertInto('log_exports').values([base, base, base]).returning('id').execute();
    const four = await apply(f.tokens.userB, {});
    expect([four.status, four.body.code, four.body.message]).toEqual([429, 601001, 'Simultaneous download limit reached (3 records)']);
    await t.deps.db.updateTable('log_exports').set({ status: 'completed' }).where('id', 'in', busy.map((b) => b.id)).execute();
    await t.deps.db.updateTable('accounts').set({ max_log_export_times: 4 }).where('id', '=', f.userB.id).execute();
    expect((await apply(f.tokens.userB, {})).status).toBe(200);
    const fifth = await apply(f.tokens.userB, {});
    expect([fifth.status, fifth.body.code, fifth.body.message]).toEqual([429, 601002, 'Daily download limit reached (4 records)']);
    const now = new Date();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(fifth.body.extra).toEqual({ max: 4, resetAt: new Date(next).toISOString() });
  });

  it('takes over exports a restart interrupted, and fails those whose lines are gone', async () => {
    const done = await settled(f.tokens.userA, (await apply(f.tokens.userA, {})).body.data.id);
    const old = await settled(f.tokens.userA, (await apply(f.tokens.userA, {})).body.data.id);
    fs.rmSync(file(done.id));
    await t.deps.db.updateTable('log_exports').set({ status: 'processing', rows: 3, finished_at: null }).where('id', '=', done.id).execute();
    const longAgo = { start_time: '2020-01-01T00:00:00.000Z', end_time: '2020-01-01T01:00:00.000Z', status: 'processing' as const };
    await t.deps.db.updateTable('log_exports').set(longAgo).where('id', '=', old.id).execute();
    t = await t.restart();
    expect(await settled(f.tokens.userA, done.id)).toMatchObject({ status: 'completed', rows: 7, totalRows: 7 });
    expect(csvOf(fs.readFileSync(file(done.id)))).toHaveLength(8);
    const failed = await get(f.tokens.userA, old.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toMatch(/restart.*raw lines/);
  });
});
