import { gzipSync } from 'node:zlib';
import type { agentProtocol } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode } from '../../../test/agent-logs';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

const MIN = 60_000;
const N = 'statistics/network/outcomes';

type StreamLine = agentProtocol.StreamLogLine;
const streamLine = (o: Partial<StreamLine> & { siteId: number; time: string }): StreamLine => ({
  port: 9000, protocol: 'TCP', clientIp: '203.0.113.9', outcome: 'pass', status: 200, bytesSent: 0, bytesReceived: 0, sessionTime: 0.1,
  country: 'DE', asn: '64500', coloCountry: 'NL', ...o,
});

lane('network (L4) statistics', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let at: (ms: number) => string;
  let window: Record<string, unknown>;
  let nodeA: string;
  const post = (token: string, path: string, body: object) => call(t, 'POST', path, { token, body });
  const ship = async (credential: string, lines: object[], file = 'inode-1:1') => {
    const withOffsets = lines.map((l, i) => JSON.stringify({ ...l, offset: (i + 1) * 100 }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/agent/v1/logs/stream',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', authorization: `Node ${credential}`, 'x-log-file': file },
      payload: gzipSync(withOffsets.join('\n') + '\n'),
    });
    expect(res.statusCode).toBe(200);
    return res.json().accepted as number;
  };
  let batchA: object[];

  beforeAll(async () => {
    t = await startTestApp({ L4_ATTACK_ANALYSIS: '1' });
    f = await makeInfra(t);
    const base = Math.floor(Date.now() / (5 * MIN)) * 5 * MIN - 30 * MIN;
    at = (ms: number) => new Date(base + ms).toISOString();
    window = { timeInterval: 'custom', startTime: at(0), endTime: at(30 * MIN), reservedSite: [f.a.site] };
    nodeA = await enrolNode(t, f.tokens.clientA, f.a.node);
    const nodeB = await enrolNode(t, f.tokens.clientB, f.b.node);
    const s = f.a.site;
    batchA = [
      streamLine({ siteId: s, time: at(MIN), bytesSent: 1000, bytesReceived: 200 }),
      streamLine({ siteId: s, time: at(2 * MIN), clientIp: '203.0.113.50', country: 'US', asn: '64501', outcome: 'drop', status: 403, bytesReceived: 40 }),
      streamLine({ siteId: s, time: at(11 * MIN), protocol: 'UDP', clientIp: '198.51.100.7', asn: '', coloCountry: '', bytesSent: 300, bytesReceived: 100 }),
      // not a site of node A's zone, and a protocol no stream server carries: both skipped
      streamLine({ siteId: f.b.site, time: at(MIN), bytesSent: 9999 }),
      { ...streamLine({ siteId: s, time: at(MIN), bytesSent: 7777 }), protocol: 'SCTP' },
    ];
    expect(await ship(nodeA, batchA)).toBe(5);
    await ship(nodeB, [streamLine({ siteId: f.b.site, time: at(MIN), clientIp: '192.0.2.77', bytesSent: 5000 })]);
  });
  afterAll(() => t.close());

  it('tells the console, through the branding call, that the layer-4 attack screen is on', async () => {
    for (const tier of ['user', 'client']) expect((await call(t, 'GET', `${tier}/logo`)).body.data.l4AttackAnalysis).toBe(true);
  });

  it('sums the bits passed and dropped: the bytes of both directions times 8', async () => {
    const res = await post(f.tokens.userA, `user/${N}/sumBits`, window);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      window: { startTime: at(0), endTime: at(30 * MIN), reportInterval: 5, timeZone: 'UTC' },
      pass: (1200 + 400) * 8, drop: 40 * 8, total: (1200 + 400 + 40) * 8, passConnections: 2, dropConnections: 1,
    });
    const udp = await post(f.tokens.userA, `user/${N}/sumBits`, { ...window, protocols: ['UDP'] });
    expect(udp.body.data).toMatchObject({ pass: 3200, drop: 0, passConnections: 1 });
    const drops = await post(f.tokens.userA, `user/${N}/sumBits`, { ...window, outcomes: 'drop' });
    expect(drops.body.data).toMatchObject({ pass: 0, drop: 320, total: 320 });
  });

  it('takes a batch sent again once (file cursor)', async () => {
    expect(await ship(nodeA, batchA)).toBe(5);
    expect((await post(f.tokens.userA, `user/${N}/sumBits`, window)).body.data.total).toBe((1200 + 400 + 40) * 8);
  });

  it('answers the average bit rate per bucket: bits over the bucket seconds, empty buckets as zero', async () => {
    const res = await post(f.tokens.userA, `user/${N}/avgBitRate`, window);
    const data = res.body.data.data as { time: string; pass: number; drop: number; total: number }[];
    expect(data.map((p) => p.time)).toEqual([0, 5, 10, 15, 20, 25].map((m) => at(m * MIN)));
    expect(data[0]).toEqual({ time: at(0), pass: (1200 * 8) / 300, drop: (40 * 8) / 300, total: (1240 * 8) / 300 });
    expect(data[1]).toMatchObject({ pass: 0, drop: 0, total: 0 });
    expect(data[2]).toMatchObject({ pass: (400 * 8) / 300, drop: 0 });
  });

  it('ranks data-centre countries, source addresses and ASNs by bits; noData when the list is empty', async () => {
    const countries = await post(f.tokens.userA, `user/${N}/countries/tops`, window);
    expect(countries.body.data).toMatchObject({ noData: false, measured: true, items: [{ key: 'NL', bits: 1240 * 8, connections: 2 }, { key: '', bits: 3200, connections: 1 }] });
    const ips = await post(f.tokens.userA, `user/${N}/ips/tops`, { ...window, top: 1 });
    expect(ips.body.data.items).toEqual([{ key: '203.0.113.9', bits: 9600, connections: 1 }]);
    const dropped = await post(f.tokens.userA, `user/${N}/ips/tops`, { ...window, outcomes: 'drop' });
    expect(dropped.body.data.items).toEqual([{ key: '203.0.113.50', bits: 320, connections: 1 }]);
    const asns = await post(f.tokens.userA, `user/${N}/asns/tops`, window);
    expect(asns.body.data.items.map((i: { key: string }) => i.key)).toEqual(['64500', '', '64501']);
    const before = { ...window, startTime: at(-120 * MIN), endTime: at(-60 * MIN) };
    expect((await post(f.tokens.userA, `user/${N}/countries/tops`, before)).body.data).toMatchObject({ noData: true, items: [] });
  });

  it('answers the bit rate of the keys a tops answer gave', async () => {
    const res = await post(f.tokens.userA, `user/${N}/asns/avgBitRate`, { ...window, asns: ['64500'] });
    expect(res.body.data.series).toHaveLength(1);
    expect(res.body.data.series[0].key).toBe('64500');
    expect(res.body.data.series[0].data[0]).toEqual({ time: at(0), bitRate: 9600 / 300 });
    const ips = await post(f.tokens.userA, `user/${N}/ips/avgBitRate`, { ...window, ips: ['198.51.100.7', '203.0.113.50'] });
    expect(ips.body.data.series.map((s: { key: string; data: { bitRate: number }[] }) => [s.key, s.data[0].bitRate, s.data[2].bitRate])).toEqual([
      ['198.51.100.7', 0, 3200 / 300],
      ['203.0.113.50', 320 / 300, 0],
    ]);
    const countries = await post(f.tokens.userA, `user/${N}/countries/avgBitRate`, window);
    expect(countries.body.data.series.map((s: { key: string }) => s.key)).toEqual(['NL', '']);
  });

  it('answers bits per IP protocol: TCP and UDP measured, ICMP and GRE not (null, never a made-up zero)', async () => {
    const res = await post(f.tokens.userA, `user/${N}/ipProtocols/bits`, window);
    expect(res.body.data.items).toEqual([
      { protocol: 'TCP', measured: true, bits: 1240 * 8, connections: 2 },
      { protocol: 'UDP', measured: true, bits: 3200, connections: 1 },
      { protocol: 'ICMP', measured: false, bits: null, connections: null },
      { protocol: 'GRE', measured: false, bits: null, connections: null },
    ]);
    const rate = await post(f.tokens.userA, `user/${N}/ipProtocols/avgBitRate`, window);
    expect(rate.body.data.series.map((s: { key: string; data: { bitRate: number }[] }) => [s.key, s.data[0].bitRate])).toEqual([['TCP', 9920 / 300], ['UDP', 0]]);
    const flags = await post(f.tokens.userA, `user/${N}/tcpFlags/tops`, window);
    expect(flags.body.data).toMatchObject({ measured: false, noData: true, items: [] });
    expect((await post(f.tokens.userA, `user/${N}/tcpFlags/avgBitRate`, window)).body.data).toMatchObject({ measured: false, series: [] });
  });

  it("shows a client its users' sites and nobody another tenant's", async () => {
    const all = { ...window, reservedSite: undefined };
    expect((await post(f.tokens.clientA, `client/${N}/sumBits`, all)).body.data.total).toBe(1640 * 8);
    expect((await post(f.tokens.clientB, `client/${N}/sumBits`, all)).body.data.total).toBe(5000 * 8);
    expect((await post(f.tokens.userB, `user/${N}/ips/tops`, all)).body.data.items).toEqual([{ key: '192.0.2.77', bits: 40_000, connections: 1 }]);
    for (const [token, path] of [[f.tokens.userB, `user/${N}/sumBits`], [f.tokens.clientB, `client/${N}/ips/tops`]]) {
      const res = await post(token, path, window);
      expect([res.status, res.body.code]).toEqual([404, 101003]);
    }
    expect((await post(f.tokens.clientB, `client/${N}/countries/tops`, { ...all, reservedZone: [f.a.zone] })).status).toBe(404);
  });

  it('refuses bad input with 101003', async () => {
    const bad: [string, object][] = [
      ['sumBits', { outcomes: 'blocked' }],
      ['sumBits', { protocols: ['SCTP'] }],
      ['ips/avgBitRate', { ips: ['not an ip'] }],
      ['asns/avgBitRate', { asns: ['AS-x'] }],
      ['countries/tops', { top: 0 }],
      ['avgBitRate', { timeInterval: 'custom' }],
      ['avgBitRate', { reportInterval: 7 }],
    ];
    for (const [path, body] of bad) {
      const res = await post(f.tokens.userA, `user/${N}/${path}`, body);
      expect([res.status, res.body.code], `${path} ${JSON.stringify(body)}`).toEqual([400, 101003]);
    }
    expect((await post(f.tokens.userA, `user/${N}/sumBits`, window)).body.data.total).toBe(1640 * 8);
  });
});
