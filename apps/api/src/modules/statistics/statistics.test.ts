import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedAccessMix } from '../../../test/access-mix';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

const MIN = 60_000;

lane('statistics', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let mix: Awaited<ReturnType<typeof seedAccessMix>>;
  /** The half hour of the mix, on user A's first site. */
  let window: Record<string, unknown>;
  const post = (token: string, path: string, body: object) => call(t, 'POST', path, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    mix = await seedAccessMix(t, f);
    window = { timeInterval: 'custom', startTime: mix.at(0), endTime: mix.at(30 * MIN), reservedSite: [f.a.site] };
  });
  afterAll(() => t.close());

  it('answers the cards and breakdowns of a known mix', async () => {
    const res = await post(f.tokens.userA, 'user/statistics/info', window);
    expect(res.status).toBe(200);
    expect(res.body.data.window).toEqual({ startTime: mix.at(0), endTime: mix.at(30 * MIN), reportInterval: 5, timeZone: 'UTC' });
    expect(res.body.data.cards).toEqual({
      totalTraffics: 3900, chinaTraffics: 2500, nonChinaTraffics: 1400, totalCache: 2000,
      reqCount: 6, chinaReq: 3, nonChinaReq: 3, respCount: 5, cacheHits: 1, upstreamCount: 3, trafficReceived: 1200,
      blocked: 2, chinaCount: 1, nonChinaCount: 1,
      peakBandwidth: (3600 * 8) / 300, peakQps: 4 / 300,
    });
    expect(res.body.data).toMatchObject({
      statusCodes: { 200: 2, 301: 1, 403: 1, 404: 1, 444: 1 },
      methods: { GET: 4, POST: 1, HEAD: 1 },
      httpVersions: { 'HTTP/1.0': 1, 'HTTP/1.1': 4, 'HTTP/2.0': 1 },
      ipProtocols: { ipv4: 5, ipv6: 1 },
      protocols: { https: 5, http: 1 },
      blockCauses: { 3: 1, 4: 1 },
    });
  });

  it('answers a dense time series with bucket rates', async () => {
    const res = await call(t, 'POST', 'user/statistics/timeSeries', { token: f.tokens.userA, body: window });
    expect(res.body.total).toBe(6);
    expect(res.body.data.map((p: { time: string }) => p.time)).toEqual([0, 5, 10, 15, 20, 25].map((m) => mix.at(m * MIN)));
    const [first, , third] = res.body.data;
    expect(first).toMatchObject({ reqCount: 4, respCount: 4, traffic: 3600, cacheHits: 1, cacheTraffic: 2000, blocked: 1, status2xx: 2, status4xx: 2, bandwidth: (3600 * 8) / 300, qps: 4 / 300 });
    expect(third).toMatchObject({ reqCount: 2, traffic: 300, blocked: 1, status3xx: 1, status4xx: 1 });
    expect(res.body.data[1]).toMatchObject({ reqCount: 0, traffic: 0, bandwidth: 0, qps: 0 });
    const page = await call(t, 'POST', 'user/statistics/timeSeries?page=2&pageSize=4', { token: f.tokens.userA, body: window });
    expect(page.body.total).toBe(6);
    expect(page.body.data.map((p: { time: string }) => p.time)).toEqual([mix.at(20 * MIN), mix.at(25 * MIN)]);
  });

  it('ranks the top values of each dimension with whole-percent shares', async () => {
    const res = await post(f.tokens.userA, 'user/statistics/top', { ...window, dimensions: ['domain', 'status'], countsType: 'traffic' });
    const [domain, status] = res.body.data.tops;
    expect(domain).toEqual({
      dimension: 'domain',
      items: [
        { key: 'www.a.example', label: 'www.a.example', reqCount: 4, traffic: 3400, cacheHits: 1, cacheTraffic: 2000, blocked: 1, share: 87 },
        { key: 'img.a.example', label: 'img.a.example', reqCount: 2, traffic: 500, cacheHits: 0, cacheTraffic: 0, blocked: 1, share: 13 },
      ],
      total: { reqCount: 6, traffic: 3900, cacheHits: 1, cacheTraffic: 2000, blocked: 2 },
    });
    expect(status.items[0]).toMatchObject({ key: '200', traffic: 3000, share: 77 });
    const small = await post(f.tokens.userA, 'user/statistics/top', { ...window, top: 1 });
    const dims = small.body.data.tops.map((x: { dimension: string }) => x.dimension);
    expect(dims).toEqual(['domain', 'status', 'url', 'refererHost', 'clientIp', 'isp', 'uaFamily', 'protocol', 'httpVersion', 'method', 'cacheStatus', 'country']);
    expect(small.body.data.tops.every((x: { items: unknown[] }) => x.items.length <= 1)).toBe(true);
    expect(small.body.data.tops[0].items[0]).toMatchObject({ key: 'www.a.example', reqCount: 4, share: 67 });
    const byCity = await post(f.tokens.userA, 'user/statistics/top', { ...window, area: 'city' });
    expect(byCity.body.data.tops.slice(-2).map((x: { dimension: string }) => x.dimension)).toEqual(['region', 'city']);
  });

  it('lists grouped counts sorted and paged, with site names as labels', async () => {
    const bySite = await call(t, 'POST', 'user/statistics/list', { token: f.tokens.userA, body: { ...window, reservedSite: undefined, groupBy: 'site' } });
    expect(bySite.body.total).toBe(2);
    expect(bySite.body.data.map((r: { key: string; label: string; reqCount: number }) => [r.key, r.label, r.reqCount])).toEqual([
      [String(f.a.site), 'site-a', 6],
      [String(mix.siteA2), 'site-a2', 1],
    ]);
    const asc = await call(t, 'POST', 'user/statistics/list?sortBy=traffic&orderBy=asc&page=1&pageSize=1', { token: f.tokens.userA, body: window });
    expect(asc.body).toMatchObject({ total: 2, data: [{ key: 'img.a.example', traffic: 500, share: 33 }] });
    const second = await call(t, 'POST', 'user/statistics/list?sortBy=traffic&orderBy=asc&page=2&pageSize=1', { token: f.tokens.userA, body: window });
    expect(second.body.data).toMatchObject([{ key: 'www.a.example', traffic: 3400 }]);
    const byKey = await call(t, 'POST', 'user/statistics/list?sortBy=key&orderBy=asc', { token: f.tokens.userA, body: { ...window, groupBy: 'method' } });
    expect(byKey.body.data.map((r: { key: string }) => r.key)).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('exports every row of the list as CSV', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/statistics/list/export?sortBy=reqCount', headers: { authorization: `Bearer ${f.tokens.userA}` }, payload: { ...window, groupBy: 'domain' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="statistics-domain-\d{8}T\d{4}Z-\d{8}T\d{4}Z\.csv"$/);
    expect(res.body.split('\n')).toEqual([
      `# window ${mix.at(0)} to ${mix.at(30 * MIN)}, interval 5 minutes, time zone UTC`,
      'key,label,reqCount,traffic,cacheHits,cacheTraffic,blocked,share',
      'www.a.example,www.a.example,4,3400,1,2000,1,67',
      'img.a.example,img.a.example,2,500,0,0,1,33',
      '',
    ]);
  });

  it('counts today and yesterday in the time zone asked for', async () => {
    const yesterdayNoon = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10) + 'T04:00:00.000Z'; // noon in Taipei
    const { postLogs, logLine } = await import('../../../test/agent-logs');
    await postLogs(t, mix.nodeA, [logLine({ siteId: mix.siteA2, time: yesterdayNoon, domain: 'shop.a2.example', requestId: 'r-old' })]);
    const a2Lines = [Date.parse(yesterdayNoon), ...mix.lines.a2.map((l) => Date.parse(l.time))];
    for (const timeInterval of ['today', 'yesterday']) {
      const res = await post(f.tokens.userA, 'user/statistics/info', { timeInterval, timeZone: 'Asia/Taipei', reservedSite: [mix.siteA2] });
      const w = res.body.data.window;
      expect(w.timeZone).toBe('Asia/Taipei');
      expect(new Date(w.startTime).toLocaleString('en-GB', { timeZone: 'Asia/Taipei' })).toMatch(/, 00:00:00$/);
      const inside = a2Lines.filter((ms) => ms >= Date.parse(w.startTime) && ms < Date.parse(w.endTime)).length;
      expect(res.body.data.cards.reqCount, timeInterval).toBe(inside);
    }
  });

  it('narrows by zone, site type, domain and domain tag', async () => {
    const reqs = async (body: object) => (await post(f.tokens.userA, 'user/statistics/info', { ...window, reservedSite: undefined, ...body })).body.data.cards.reqCount;
    expect(await reqs({})).toBe(7);
    expect(await reqs({ reservedZone: [f.a.zone] })).toBe(7);
    expect(await reqs({ reservedSiteType: ['7'] })).toBe(7);
    expect(await reqs({ reservedSiteType: ['7+4'] })).toBe(0);
    expect(await reqs({ reservedDomain: ['IMG.a.example'] })).toBe(2);
    const site = `user/site/${f.a.site}`;
    await call(t, 'POST', `${site}/domains`, { token: f.tokens.userA, body: { domains: ['img.a.example', 'www.a.example'], upstreams: [{ host: '192.0.2.10' }] } });
    const meta = (await post(f.tokens.userA, 'user/domains/meta', { keyword: 'IMG' })).body.data;
    expect(meta).toEqual([{ id: expect.any(Number), domain: 'img.a.example', siteID: f.a.site }]);
    await call(t, 'PUT', `${site}/domain/setting/tags`, { token: f.tokens.userA, body: { ids: [meta[0].id], tags: ['images'] } });
    expect((await post(f.tokens.userA, 'user/domains/tags', {})).body.data).toEqual(['images']);
    expect(await reqs({ reservedDomainTag: ['images'] })).toBe(2);
    expect(await reqs({ reservedDomainTag: ['nothing'] })).toBe(0);
  });

  it('refuses every bad filter with 101003', async () => {
    const bad: [string, object][] = [
      ['user/statistics/info', { timeInterval: 'custom' }],
      ['user/statistics/info', { timeInterval: 'custom', startTime: mix.at(10 * MIN), endTime: mix.at(0) }],
      ['user/statistics/info', { reportInterval: 7 }],
      ['user/statistics/info', { timeInterval: 'fortnight' }],
      ['user/statistics/info', { timeZone: 'Mars/Olympus' }],
      ['user/statistics/top', { dimensions: ['password'] }],
      ['user/statistics/top', { top: 0 }],
      ['user/statistics/list', { groupBy: 'password' }],
    ];
    for (const [path, body] of bad) {
      const res = await post(f.tokens.userA, path, body);
      expect([res.status, res.body.code], `${path} ${JSON.stringify(body)}`).toEqual([400, 101003]);
    }
    const sort = await call(t, 'POST', 'user/statistics/list?sortBy=password', { token: f.tokens.userA, body: {} });
    expect([sort.status, sort.body.code]).toEqual([400, 101003]);
  });

  it("shows a user only its sites; another tenant's site or zone answers like a missing one", async () => {
    expect((await post(f.tokens.userB, 'user/statistics/info', { ...window, reservedSite: undefined })).body.data.cards).toMatchObject({ reqCount: 1, totalTraffics: 50_000 });
    const missing = await post(f.tokens.userA, 'user/statistics/info', { reservedSite: [999_999] });
    expect(missing.status).toBe(404);
    for (const body of [{ reservedSite: [f.b.site] }, { reservedSite: [f.a.site, f.b.site] }]) {
      const res = await post(f.tokens.userA, 'user/statistics/info', body);
      expect([res.status, res.body]).toEqual([missing.status, missing.body]);
    }
    const zone = await post(f.tokens.userA, 'user/statistics/top', { reservedZone: [f.b.zone] });
    const noZone = await post(f.tokens.userA, 'user/statistics/top', { reservedZone: [999_999] });
    expect([zone.status, zone.body]).toEqual([404, noZone.body]);
    expect((await post(f.tokens.userA, 'user/domains/meta', { siteIDs: [f.b.site] })).status).toBe(404);
    expect((await post(f.tokens.clientA, 'user/statistics/info', {})).status).toBe(401);
  });

  it("gives a client its users' sites and not another client's", async () => {
    const a = await post(f.tokens.clientA, 'client/statistics/info', { ...window, reservedSite: undefined });
    expect(a.body.data.cards).toMatchObject({ reqCount: 7, totalTraffics: 4600 });
    expect((await post(f.tokens.clientA, 'client/statistics/info', { ...window, reservedZone: [f.a.zone] })).body.data.cards.reqCount).toBe(6);
    expect((await post(f.tokens.clientB, 'client/statistics/info', { ...window, reservedSite: undefined })).body.data.cards.reqCount).toBe(1);
    expect((await post(f.tokens.clientA, 'client/statistics/list', { ...window, reservedSite: [f.b.site] })).status).toBe(404);
    expect((await post(f.tokens.clientA, 'client/statistics/timeSeries', { ...window, reservedZone: [f.b.zone] })).status).toBe(404);
  });

  it("gives the admin every site of the platform, and refuses the admin calls to other tiers' tokens", async () => {
    const all = { ...window, reservedSite: undefined };
    const info = await post(f.tokens.admin, 'admin/statistics/info', all);
    expect(info.status).toBe(200);
    expect(info.body.data.cards).toMatchObject({ reqCount: 8, totalTraffics: 4600 + 50_000 });
    const series = await post(f.tokens.admin, 'admin/statistics/timeSeries', all);
    const sum = (key: string) => series.body.data.reduce((n: number, p: Record<string, number>) => n + p[key], 0);
    expect([sum('reqCount'), sum('traffic')]).toEqual([8, 54_600]);
    expect((await post(f.tokens.admin, 'admin/statistics/info', { ...window, reservedSite: [f.b.site] })).body.data.cards.reqCount).toBe(1);
    for (const token of [f.tokens.clientA, f.tokens.userA]) {
      for (const path of ['admin/statistics/info', 'admin/statistics/timeSeries']) expect((await post(token, path, all)).status, path).toBe(401);
    }
    expect((await post(f.tokens.admin, 'client/statistics/info', all)).status).toBe(401);
    const bad = await post(f.tokens.admin, 'admin/statistics/info', { reportInterval: 7 });
    expect([bad.status, bad.body.code]).toEqual([400, 101003]);
    expect((await post(f.tokens.admin, 'admin/statistics/top', all)).status).toBe(404);
  });

  it('keeps the statistics calls out of the operation log', async () => {
    const logged = await t.deps.db.selectFrom('audit_logs').select('url').where('url', 'like', '%statistics%').execute();
    expect(logged).toEqual([]);
  });
});
