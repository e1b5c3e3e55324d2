import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode, logLine, postLogs } from '../../../test/agent-logs';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, type TestApp, startTestApp } from '../../../test/harness';

const MIN = 60_000;
const HOUR = 60 * MIN;

lane('security dashboard', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  /** Two whole hours ending at the last hour boundary: the lines fall in its first hour (bucket 0) and second (bucket 1). */
  let window: Record<string, unknown>;
  let base: number;
  /** The advanced firewall rule of user A's site, as the edge names it. */
  let noAdmin: string;
  const post = (token: string, path: string, body: object) => call(t, 'POST', path, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    base = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const at = (m: number) => new Date(base + m * MIN).toISOString();
    const s = f.a.site;
    const [acl] = (await post(f.tokens.userA, `user/site/${s}/module/luaAcls`, { modules: [{ name: 'bots' }] })).body.data;
    const rule = (await call(t, 'POST', `user/site/${s}/module/luaAcl/${acl.id}/rules`, {
      token: f.tokens.userA,
      body: { name: 'no admin', priority: 1, conditions: [{ field: 'uri', operator: 'contains', value: '/admin' }], action: 'deny' },
    })).body.data;
    noAdmin = `${acl.id}:${rule.id}`;
    const refused = (m: number, o: Parameters<typeof logLine>[0]) => logLine({ time: at(m), status: 929, upstreamTime: null, bytesSent: 100, ...o });
    const a = [
      logLine({ siteId: s, time: at(1), domain: 'www.a.example', clientIp: '198.51.100.1', country: 'TW', city: 'Taipei', bytesSent: 5000 }),
      logLine({ siteId: s, time: at(2), domain: 'www.a.example', clientIp: '198.51.100.2', country: 'CN', city: 'Shenzhen', bytesSent: 3000 }),
      refused(3, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.5', country: 'US', city: 'Dallas', blockCause: 'blacklist' }),
      refused(4, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.5', country: 'US', city: 'Dallas', blockCause: 'blacklist' }),
      refused(70, { siteId: s, domain: 'img.a.example', clientIp: '203.0.113.6', country: 'CN', city: 'Beijing', blockCause: 'blocked:anticc', status: 444, bytesSent: 0 }),
      refused(71, { siteId: s, domain: 'img.a.example', clientIp: '203.0.113.7', country: 'DE', city: 'Berlin', blockCause: 'ipset', status: 444, bytesSent: 0 }),
      refused(5, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.8', country: 'US', city: 'Dallas', blockCause: 'acl', blockRule: noAdmin }),
      refused(72, { siteId: s, domain: 'img.a.example', clientIp: '203.0.113.8', country: 'US', city: 'Dallas', blockCause: 'acl', blockRule: noAdmin }),
      refused(73, { siteId: s, domain: 'img.a.example', clientIp: '203.0.113.9', country: 'FR', city: 'Paris', blockCause: 'acl', blockRule: 'sqli' }),
      refused(6, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.10', country: 'JP', city: 'Tokyo', blockCause: 'geo:JP', blockRule: 'JP' }),
      refused(7, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.11', country: 'US', city: 'Dallas', blockCause: 'anticc', status: 978 }),
      refused(8, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.12', country: 'US', city: 'Dallas', blockCause: 'limit', blockRule: '4' }),
      refused(9, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.12', country: 'US', city: 'Dallas', blockCause: 'ua', blockRule: 'curl' }),
      refused(10, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.12', country: 'US', city: 'Dallas', blockCause: 'referer' }),
      refused(11, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.12', country: 'US', city: 'Dallas', blockCause: 'header:X-Bad', blockRule: 'X-Bad' }),
      refused(12, { siteId: s, domain: 'www.a.example', clientIp: '203.0.113.12', country: 'US', city: 'Dallas', blockCause: 'token', status: 403 }),
    ];
    const b = [refused(3, { siteId: f.b.site, domain: 'www.b.example', clientIp: '192.0.2.99', country: 'US', city: 'Dallas', blockCause: 'blacklist' })];
    for (const [token, node, lines] of [[f.tokens.clientA, f.a.node, a], [f.tokens.clientB, f.b.node, b]] as const) {
      const res = await postLogs(t, await enrolNode(t, token, node), [...lines]);
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    }
    window = { timeInterval: 'custom', startTime: at(0), endTime: at(120) };
  });
  afterAll(() => t.close());

  const cardsOf = async (token: string, path: string, body: object = window) =>
    Object.fromEntries(((await post(token, path, body)).body.data.cards as { type: number; value: number }[]).map((c) => [c.type, c.value]));
  const topsOf = (res: { body: { data?: { tops: { type: number; items: { key: string; count: number }[] }[] } } }) =>
    Object.fromEntries(res.body.data!.tops.map((x) => [x.type, x.items.map((i) => [i.key, i.count])]));

  it('answers the cards of the lines fed', async () => {
    const res = await post(f.tokens.userA, 'user/security/cards', window);
    expect(res.status).toBe(200);
    expect(res.body.data.window).toMatchObject({ reportInterval: 60 });
    expect(await cardsOf(f.tokens.userA, 'user/security/cards')).toEqual({ 3: 16, 4: 14, 5: 8, 14: 4, 15: 3 });
    expect(await cardsOf(f.tokens.userA, 'user/security/cards', { ...window, types: [15] })).toEqual({ 15: 3 });
  });

  it('ranks refused domains and addresses, and requests and refusals by country and city', async () => {
    const tops = topsOf(await post(f.tokens.userA, 'user/security/tops', window));
    expect(tops[14]).toEqual([['203.0.113.5', 2], ['203.0.113.6', 1], ['203.0.113.7', 1]]);
    expect(tops[19]).toEqual([['www.a.example', 10], ['img.a.example', 4]]);
    expect(tops[20][0]).toEqual(['203.0.113.12', 5]);
    const countries = await post(f.tokens.userA, 'user/security/areaTops', window);
    expect(topsOf(countries)[11][0]).toEqual(['US', 10]);
    expect(topsOf(countries)[21]).toEqual([['US', 10], ['CN', 1], ['DE', 1], ['FR', 1], ['JP', 1]]);
    expect(countries.body.data.tops[1]).toMatchObject({ total: 14, items: expect.arrayContaining([{ key: 'US', label: 'US', count: 10, traffic: 1000, share: 71 }]) });
    const cities = topsOf(await post(f.tokens.userA, 'user/security/areaTops', { ...window, types: [12, 22], top: 2 }));
    expect(cities).toEqual({ 12: [['Dallas', 10], ['Beijing', 1]], 22: [['Dallas', 10], ['Beijing', 1]] });
  });

  it('answers the blacklist and WAF series and splits', async () => {
    const blacklist = (await post(f.tokens.userA, 'user/security/blacklist', window)).body.data;
    expect(blacklist.series).toEqual([{ type: 14, points: [{ time: new Date(base).toISOString(), count: 2 }, { time: new Date(base + HOUR).toISOString(), count: 2 }] }]);
    const [byType, byCountry] = blacklist.tops;
    expect(Object.fromEntries(byType.items.map((i: { key: string; count: number }) => [i.key, i.count]))).toEqual({ 2: 4, 12: 3, 3: 1, 4: 1, 8: 1, 5: 1, 10: 1, 11: 1, 0: 1 });
    expect(byCountry).toMatchObject({ type: 18, total: 4, items: [{ key: 'US', count: 2, share: 50 }, { key: 'CN', count: 1 }, { key: 'DE', count: 1 }] });
    const waf = (await post(f.tokens.userA, 'user/security/waf', window)).body.data;
    expect(waf.tops[0].items.map((i: { label: string }) => i.label)).toEqual(['bots / no admin', 'sqli']);
    expect(waf.series[0].points.map((p: { count: number }) => p.count)).toEqual([1, 2]);
    expect(topsOf({ body: { data: waf } })).toEqual({
      23: [[noAdmin, 2], ['sqli', 1]],
      24: [['img.a.example', 2], ['www.a.example', 1]],
      25: [['203.0.113.8', 2], ['203.0.113.9', 1]],
    });
  });

  it("shows a user only its sites and a client only its users' sites", async () => {
    expect(await cardsOf(f.tokens.userB, 'user/security/cards')).toEqual({ 3: 1, 4: 1, 5: 1, 14: 1, 15: 0 });
    expect(await cardsOf(f.tokens.clientA, 'client/security/cards')).toEqual({ 3: 16, 4: 14, 5: 8, 14: 4, 15: 3 });
    expect(topsOf(await post(f.tokens.clientB, 'client/security/tops', window))[14]).toEqual([['192.0.2.99', 1]]);
    const foreign = await post(f.tokens.userA, 'user/security/waf', { ...window, reservedSite: [f.b.site] });
    const missing = await post(f.tokens.userA, 'user/security/waf', { ...window, reservedSite: [999_999] });
    expect([foreign.status, foreign.body]).toEqual([404, missing.body]);
    expect((await post(f.tokens.clientA, 'client/security/blacklist', { ...window, reservedZone: [f.b.zone] })).status).toBe(404);
    expect((await post(f.tokens.clientA, 'user/security/cards', window)).status).toBe(401);
  });

  it('refuses unknown types and bad filters with 101003', async () => {
    const bad: [string, object][] = [
      ['user/security/cards', { types: [6] }],
      ['user/security/cards', { types: [3, 3] }],
      ['user/security/cards', { types: [] }],
      ['user/security/tops', { types: [11] }],
      ['user/security/areaTops', { types: [14] }],
      ['user/security/blacklist', { types: ['14'] }],
      ['user/security/waf', { top: 0 }],
      ['user/security/waf', { reportInterval: 30 }],
      ['client/security/cards', { timeInterval: 'custom' }],
    ];
    for (const [path, body] of bad) {
      const res = await post(path.startsWith('client') ? f.tokens.clientA : f.tokens.userA, path, body);
      expect([res.status, res.body.code], `${path} ${JSON.stringify(body)}`).toEqual([400, 101003]);
    }
    const logged = await t.deps.db.selectFrom('audit_logs').select('url').where('url', 'like', '%security%').execute();
    expect(logged).toEqual([]);
  });
});
