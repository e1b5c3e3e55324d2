import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode, logLine, postLogs } from '../../../test/agent-logs';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

type Rank = { key: string; domain: string; siteID: number; traffic: number; reqCount: number };

lane('domain ranking', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const ranks = async (token: string, q = '') => (await call(t, 'GET', `user/traffic/domainRanks?${q}`, { token })).body as { data: Rank[]; total: number };
  /** Three months back: inside the hourly rollups' retention, outside this month. */
  const now = new Date();
  const monthStart = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  const old = new Date(monthStart(3).getTime() + 9.5 * 86_400_000).toISOString();

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const credA = await enrolNode(t, f.tokens.clientA, f.a.node);
    const credB = await enrolNode(t, f.tokens.clientB, f.b.node);
    await postLogs(t, credA, [
      logLine({ siteId: f.a.site, domain: 'big.example.com', bytesSent: 9000 }),
      logLine({ siteId: f.a.site, domain: 'busy.example.com', bytesSent: 100 }),
      logLine({ siteId: f.a.site, domain: 'busy.example.com', bytesSent: 100 }),
      logLine({ siteId: f.a.site, domain: 'busy.example.com', bytesSent: 100 }),
      logLine({ siteId: f.a.site, domain: 'small.example.com', bytesSent: 10 }),
      logLine({ siteId: f.a.site, domain: 'past.example.com', bytesSent: 5, time: old }),
    ]);
    await postLogs(t, credB, [logLine({ siteId: f.b.site, domain: 'other-tenant.example.net', bytesSent: 50_000 })]);
  });
  afterAll(() => t.close());

  it("ranks the user's domains of this month by traffic, then by requests, both ways", async () => {
    const byTraffic = await ranks(f.tokens.userA);
    expect(byTraffic.total).toBe(3);
    expect(byTraffic.data).toEqual([
      { key: `${f.a.site}:big.example.com`, domain: 'big.example.com', siteID: f.a.site, traffic: 9000, reqCount: 1 },
      { key: `${f.a.site}:busy.example.com`, domain: 'busy.example.com', siteID: f.a.site, traffic: 300, reqCount: 3 },
      { key: `${f.a.site}:small.example.com`, domain: 'small.example.com', siteID: f.a.site, traffic: 10, reqCount: 1 },
    ]);
    expect((await ranks(f.tokens.userA, 'sortBy=traffic&orderBy=asc')).data.map((r) => r.domain)).toEqual(['small.example.com', 'busy.example.com', 'big.example.com']);
    expect((await ranks(f.tokens.userA, 'sortBy=reqCount&orderBy=descend')).data[0].domain).toBe('busy.example.com');
    expect((await ranks(f.tokens.userA, 'sortBy=reqCount&orderBy=ascend')).data.map((r) => r.domain)).toEqual(['big.example.com', 'small.example.com', 'busy.example.com']);
  });

  it('pages in the query and keeps the total', async () => {
    const second = await ranks(f.tokens.userA, 'page=2&pageSize=2');
    expect(second).toMatchObject({ total: 3, data: [{ domain: 'small.example.com' }] });
    expect((await ranks(f.tokens.userA, 'page=3&pageSize=2'))).toEqual({ data: [], total: 3 });
  });

  it('takes a window in ISO-8601 or unix seconds', async () => {
    const iso = await ranks(f.tokens.userA, `startTime=${monthStart(3).toISOString()}&endTime=${monthStart(2).toISOString()}`);
    expect(iso).toEqual({ total: 1, data: [{ key: `${f.a.site}:past.example.com`, domain: 'past.example.com', siteID: f.a.site, traffic: 5, reqCount: 1 }] });
    const unix = await ranks(f.tokens.userA, `startTime=${monthStart(3).getTime() / 1000}&endTime=${monthStart(2).getTime() / 1000}`);
    expect(unix).toEqual(iso);
    const everything = await ranks(f.tokens.userA, `startTime=${monthStart(4).toISOString()}`);
    expect(everything.total).toBe(4);
  });

  it('refuses bad filters with 101003', async () => {
    for (const q of ['sortBy=password', 'startTime=yesterday', 'startTime=2025-02-01T00:00:00Z&endTime=2025-01-01T00:00:00Z', 'pageSize=0']) {
      const res = await call(t, 'GET', `user/traffic/domainRanks?${q}`, { token: f.tokens.userA });
      expect([res.status, res.body.code], q).toEqual([400, 101003]);
    }
  });

  it("shows a user only its own sites' domains; another tenant's site answers like a missing one", async () => {
    expect((await ranks(f.tokens.userB)).data.map((r) => r.domain)).toEqual(['other-tenant.example.net']);
    expect((await ranks(f.tokens.userA, `siteID=${f.a.site}`)).total).toBe(3);
    const foreign = await call(t, 'GET', `user/traffic/domainRanks?siteID=${f.b.site}`, { token: f.tokens.userA });
    const missing = await call(t, 'GET', 'user/traffic/domainRanks?siteID=999999', { token: f.tokens.userA });
    expect(foreign.status).toBe(404);
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
    expect((await call(t, 'GET', 'user/traffic/domainRanks', { token: f.tokens.clientA })).status).toBe(401);
  });

  it("gives a client the ranking over its users' sites only", async () => {
    const a = (await call(t, 'GET', 'client/traffic/domainRanks?pageSize=1', { token: f.tokens.clientA })).body;
    expect(a).toEqual({ total: 3, data: [expect.objectContaining({ domain: 'big.example.com', traffic: 9000 })] });
    const foreign = await call(t, 'GET', `client/traffic/domainRanks?siteID=${f.b.site}`, { token: f.tokens.clientA });
    expect(foreign.status).toBe(404);
  });
});
