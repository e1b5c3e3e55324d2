import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedAccessMix } from '../../../test/access-mix';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

const MIN = 60_000;

lane('access and WAF logs', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let mix: Awaited<ReturnType<typeof seedAccessMix>>;
  let span: { startTime: string; endTime: string };
  const search = (token: string, path: string, body: object) => call(t, 'POST', path, { token, body: { ...span, ...body } });
  const ids = (res: { body: { data?: { requestId: string }[] } }) => res.body.data!.map((l) => l.requestId);

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    mix = await seedAccessMix(t, f);
    span = { startTime: mix.at(0), endTime: mix.at(30 * MIN) };
  });
  afterAll(() => t.close());

  it("answers the user's lines newest first, paged, each as the edge logged it", async () => {
    const all = await search(f.tokens.userA, 'user/logs/access', {});
    expect(all.body.total).toBe(7);
    expect(ids(all)).toEqual(['r6', 'r5', 'r7', 'r4', 'r3', 'r2', 'r1']);
    const line = mix.lines.a[1];
    expect(all.body.data!.find((l: { requestId: string }) => l.requestId === 'r2')).toEqual({
      time: line.time, requestId: 'r2', siteID: f.a.site, domain: 'www.a.example', nodeID: f.a.node, remoteIP: '2001:db8::1', country: 'CN',
      region: 'Guangdong', city: 'Shenzhen', isp: 'China Telecom', asn: '', protocol: 'https', method: 'GET', uri: '/logo.png', status: 200,
      bytesSent: 2000, bytesReceived: 200, requestTime: 0.01, upstreamTime: null, cacheStatus: 'HIT', httpVersion: 'HTTP/2.0', referer: '', userAgent: 'curl/8',
    });
    const page = await search(f.tokens.userA, 'user/logs/access', { page: 2, pageSize: 3 });
    expect([page.body.total, ids(page)]).toEqual([7, ['r4', 'r3', 'r2']]);
  });

  it('filters by site, domain, address, cache status, URI part and status', async () => {
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { siteIDs: [mix.siteA2] }))).toEqual(['r7']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { domains: ['img.a.example'] }))).toEqual(['r5', 'r3']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { remoteIP: '203.0.113.9' }))).toEqual(['r5', 'r3']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { cacheStatus: 'HIT' }))).toEqual(['r2']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { uri: 'upload' }))).toEqual(['r3']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { status: 301 }))).toEqual(['r6']);
    expect(ids(await search(f.tokens.userA, 'user/logs/access', { startTime: mix.at(10 * MIN) }))).toEqual(['r6', 'r5']);
  });

  it('answers the refused lines with their cause, module, rule and action', async () => {
    const waf = await search(f.tokens.userA, 'user/logs/waf', {});
    expect(waf.body.total).toBe(2);
    expect(waf.body.data!.map((l: Record<string, unknown>) => [l.requestId, l.cause, l.module, l.rule, l.action, l.status])).toEqual([
      ['r5', '4', '5', '2', 'drop', 444],
      ['r4', '3', '12', '7', 'block', 403],
    ]);
  });

  it('refuses a span over one day and other bad queries with 101003', async () => {
    const bad = [
      { startTime: mix.at(-25 * 60 * MIN), endTime: mix.at(0) },
      { startTime: mix.at(10 * MIN), endTime: mix.at(0) },
      { startTime: 'yesterday' },
      { endTime: undefined },
      { pageSize: 0 },
    ];
    for (const body of bad) {
      for (const path of ['user/logs/access', 'user/logs/waf']) {
        const res = await search(f.tokens.userA, path, body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 101003]);
      }
    }
  });

  it("shows a user only its own lines; another tenant's site answers like a missing one", async () => {
    expect(ids(await search(f.tokens.userB, 'user/logs/access', {}))).toEqual(['r8']);
    expect((await search(f.tokens.userB, 'user/logs/waf', {})).body).toEqual({ data: [], total: 0 });
    const missing = await search(f.tokens.userA, 'user/logs/access', { siteIDs: [999_999] });
    const foreign = await search(f.tokens.userA, 'user/logs/waf', { siteIDs: [f.b.site] });
    expect(missing.status).toBe(404);
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
  });

  it("gives a client its users' lines and not another client's", async () => {
    expect((await search(f.tokens.clientA, 'client/logs/access', {})).body.total).toBe(7);
    expect(ids(await search(f.tokens.clientB, 'client/logs/access', {}))).toEqual(['r8']);
    expect((await search(f.tokens.clientA, 'client/logs/access', { siteIDs: [f.b.site] })).status).toBe(404);
    expect((await search(f.tokens.clientA, 'client/logs/waf', {})).body.total).toBe(2);
  });
});
