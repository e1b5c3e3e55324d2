import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMmdb } from '../apps/agent/src/geo/mmdb-writer';
import { selfSignedCertificate } from '../apps/agent/src/test/certificates';
import { range } from '../apps/agent/src/test/mmdb';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { api, createAccountCli } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { signInByMail, until } from './tenants';

const nginx = await nginxForTests('the analytics truth test needs nginx with the Lua module');
const PASSWORD = 'analytics truth password';
const HOST = 'truth.shop.test';

/** The client addresses of the mix (all on loopback) and what the test databases say of them. */
const PLACES: Record<string, { country: string; region: string; city: string; isp: string }> = {
  '127.0.0.2': { country: 'CN', region: 'Guangdong', city: 'Shenzhen', isp: 'China Telecom' },
  '127.0.0.3': { country: 'US', region: 'California', city: 'San Jose', isp: 'Example Transit' },
  '127.0.0.4': { country: 'DE', region: 'Hesse', city: 'Frankfurt am Main', isp: 'Example Carrier' },
};
const ABUSER = '127.0.0.5';
/** Also blacklisted: the address that probes whether the blacklist is in place, kept out of the mix. */
const PROBE_ABUSER = '127.0.0.6';

type Sent = { ip: string; scheme: 'http' | 'https'; path: string; agent: string; status: number; bytes: number };

/** One request from `ip` over a raw socket (TLS for https): the status and every byte nginx sent (headers and body). */
const request = ({ port, scheme, ip, path: p, agent }: { port: number; scheme: 'http' | 'https'; ip: string; path: string; agent: string }) =>
  new Promise<Sent>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const head = `GET ${p} HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${agent}\r\nConnection: close\r\n\r\n`;
    const socket: net.Socket =
      scheme === 'https'
        ? tls.connect({ socket: net.connect({ port, host: '127.0.0.1', localAddress: ip }), servername: HOST, rejectUnauthorized: false }, () => socket.write(head))
        : net.connect({ port, host: '127.0.0.1', localAddress: ip }, () => socket.write(head));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', reject);
    socket.once('close', () => {
      const all = Buffer.concat(chunks);
      resolve({ ip, scheme, path: p, agent, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all.toString('latin1'))?.[1] ?? 0), bytes: all.length });
    });
  });

const sum = (items: Sent[], f: (s: Sent) => number = () => 1) => items.reduce((n, s) => n + f(s), 0);
const bytes = (s: Sent) => s.bytes;

describe.skipIf(!nginx.ok)('analytics truth: what a real edge served is what statistics, logs and exports say', () => {
  let stack: EdgeStack;
  let dbDir: string;
  let origin: http.Server;
  let user: string;
  let stranger: string;
  const sent: Sent[] = [];
  /** The requests that checked the edge was ready, before the mix (served, so counted too). */
  const probes: Sent[] = [];
  const filter = { timeInterval: 'oneHour', reportInterval: 5 };
  const send = (o: { scheme?: 'http' | 'https'; ip: string; path: string; agent?: string }) =>
    request({ port: o.scheme === 'https' ? stack.httpsPort : stack.httpPort, scheme: o.scheme ?? 'http', ip: o.ip, path: o.path, agent: o.agent ?? 'Mozilla/5.0 Firefox/133.0' });

  beforeAll(async () => {
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-truth-geo-'));
    const countryDb = path.join(dbDir, 'country.mmdb');
    // The city data comes as one file per IP family; the test's addresses are all IPv4.
    const cityDb = path.join(dbDir, 'dbip-city-ipv4.mmdb');
    const asnDb = path.join(dbDir, 'asn.mmdb');
    const places = Object.entries(PLACES);
    await writeMmdb({ path: countryDb, databaseType: 'EdgeKeep-Test-Country', ranges: places.map(([ip, p]) => range({ from: ip, data: { country_code: p.country } })) });
    await writeMmdb({ path: cityDb, databaseType: 'EdgeKeep-Test-City', ranges: places.map(([ip, p]) => range({ from: ip, data: { country_code: p.country, state1: p.region, city: p.city } })) });
    await writeMmdb({ path: path.join(dbDir, 'dbip-city-ipv6.mmdb'), databaseType: 'EdgeKeep-Test-City', ranges: [range({ from: '2001:db8::1', data: { state1: 'Nowhere', city: 'Nowhere' } })] });
    await writeMmdb({
      path: asnDb,
      databaseType: 'EdgeKeep-Test-ASN',
      ranges: places.map(([ip, p], i) => range({ from: ip, data: { autonomous_system_number: 64_500 + i, autonomous_system_organization: p.isp } })),
    });
    // An origin of our own: pages, an image the edge caches, and a missing page.
    origin = http.createServer((req, res) => {
      if (req.url?.startsWith('/missing')) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      res.writeHead(200, { 'content-type': req.url?.endsWith('.png') ? 'image/png' : 'text/html' }).end(`<p>${req.url}</p>`.padEnd(600, '.'));
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const originPort = (origin.address() as net.AddressInfo).port;

    stack = await startEdgeStack({
      password: PASSWORD,
      originName: 'unused',
      agentEnv: { EDGEKEEP_COUNTRY_DB: countryDb, EDGEKEEP_CITY_DIR: dbDir, EDGEKEEP_ASN_DB: asnDb, EDGEKEEP_ASN: '1' },
    });
    const { server, ids } = stack;
    user = stack.user;
    const as = { token: user };
    await api(server, 'POST', `user/site/${ids.site}/domains`, { ...as, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: originPort }] } });
    await api(server, 'POST', `user/site/${ids.site}/cacheRule`, { ...as, body: { type: 'fileTypes', values: ['png'], seconds: 300, mode: 'force' } });
    await api(server, 'POST', `user/site/${ids.site}/firewall/setting/blacklists`, { ...as, body: { ips: `${ABUSER}\n${PROBE_ABUSER}` } });
    const [acl] = (await api(server, 'POST', `user/site/${ids.site}/module/luaAcls`, { ...as, body: { modules: [{ name: 'bots' }] } })).body.data;
    await api(server, 'POST', `user/site/${ids.site}/module/luaAcl/${acl.id}/rules`, {
      ...as,
      body: { name: 'evil bot', priority: 1, conditions: [{ field: 'userAgent', operator: 'contains', value: 'evilbot' }], action: 'deny' },
    });
    const domains = (await api(server, 'GET', `user/site/${ids.site}/domains`, as)).body.data;
    await api(server, 'PUT', `user/site/${ids.site}/domains/module/luaAcl`, { ...as, body: { domainIDs: [domains[0].id], moduleID: acl.id } });
    // HTTPS: the domain is served on the zone's HTTPS port once it has a certificate.
    const { chain, key } = await selfSignedCertificate({ host: HOST });
    const cert = (await api(server, 'POST', `user/site/${ids.site}/certificate`, { ...as, body: { name: 'truth', certificate: chain, key } })).body.data;
    await api(server, 'PATCH', `user/site/${ids.site}/certificate/domains`, { ...as, body: { id: cert.id, domainIDs: [domains[0].id] } });

    // A second user of the same client: another tenant of the user tier.
    await createAccountCli(server, ['--auth', 'user', '--email', 'stranger@example.com', '--password', PASSWORD, '--client', 'ops@example.com', '--no-second-factor']);
    stranger = await signInByMail({ server, smtp: stack.smtp, tier: 'user', email: 'stranger@example.com', password: PASSWORD });

    const probe = async (o: { scheme?: 'http' | 'https'; ip: string; agent?: string }) => {
      const answer = await send({ ...o, path: '/probe' });
      probes.push(answer);
      return answer.status;
    };
    // Until the edge serves the host and every rule is in place (the bot refused), probes are not part of the mix.
    await until('the edge to serve the site with its rules', async () => ((await probe({ ip: '127.0.0.1' })) === 200 ? true : undefined), 60_000);
    await until('the bot rule to refuse', async () => ((await probe({ ip: '127.0.0.1', agent: 'evilbot/1' })) === 929 ? true : undefined), 30_000);
    await until('the blacklist to refuse', async () => ((await probe({ ip: PROBE_ABUSER })) === 929 ? true : undefined), 30_000);
    await until('HTTPS to serve', async () => ((await probe({ scheme: 'https', ip: '127.0.0.1' })) === 200 ? true : undefined), 30_000);
    // The probes (path /probe) are counted too: they were served. The mix comes from the other addresses and paths.
    await until('the probes to be counted', async () => {
      const info = await api(server, 'POST', 'user/statistics/info', { ...as, body: filter });
      return info.body.data?.cards.reqCount === probes.length ? true : undefined;
    });

    // The known mix every test reads back.
    for (let i = 0; i < 5; i++) sent.push(await send({ ip: '127.0.0.2', path: `/page/${i}` }));
    for (let i = 0; i < 3; i++) sent.push(await send({ scheme: 'https', ip: '127.0.0.3', path: '/img/logo.png' }));
    for (let i = 0; i < 2; i++) sent.push(await send({ ip: '127.0.0.4', path: `/missing/${i}` }));
    for (let i = 0; i < 2; i++) sent.push(await send({ ip: ABUSER, path: '/' }));
    for (let i = 0; i < 2; i++) sent.push(await send({ scheme: 'https', ip: '127.0.0.3', path: '/', agent: 'evilbot/2.0' }));
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    origin?.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  it('serves the known mix through nginx', () => {
    expect(sent.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 404, 404, 929, 929, 929, 929]);
  });

  it('counts every request and byte of the mix in the statistics, by address, country, region, ISP, protocol, status, cache and block cause', async () => {
    const { server } = stack;
    const mine = (rows: { key: string; reqCount: number; traffic: number }[], keys: string[]) => rows.filter((r) => keys.includes(r.key));
    const top = await until('the mix to be counted', async () => {
      const res = await api(server, 'POST', 'user/statistics/top', { token: user, body: { ...filter, top: 100, dimensions: ['clientIp'] } });
      const rows = mine(res.body.data?.tops[0].items ?? [], [...Object.keys(PLACES), ABUSER]);
      return rows.reduce((n, r) => n + r.reqCount, 0) === sent.length ? res.body.data : undefined;
    }, 30_000);
    for (const ip of [...Object.keys(PLACES), ABUSER]) {
      const from = sent.filter((s) => s.ip === ip);
      expect(top.tops[0].items.find((r: { key: string }) => r.key === ip), ip).toMatchObject({ reqCount: from.length, traffic: sum(from, bytes) });
    }
    const tops = (await api(server, 'POST', 'user/statistics/top', {
      token: user,
      body: { ...filter, top: 100, dimensions: ['country', 'region', 'city', 'isp', 'protocol', 'status', 'cacheStatus', 'blockCause', 'url'] },
    })).body.data.tops as { dimension: string; items: { key: string; reqCount: number; traffic: number; blocked: number }[] }[];
    const of = (dimension: string, key: string) => tops.find((t) => t.dimension === dimension)!.items.find((r) => r.key === key);
    for (const [ip, place] of Object.entries(PLACES)) {
      const from = sent.filter((s) => s.ip === ip);
      expect(of('country', place.country), place.country).toMatchObject({ reqCount: from.length, traffic: sum(from, bytes) });
      expect(of('region', place.region), place.region).toMatchObject({ reqCount: from.length });
      expect(of('city', place.city), place.city).toMatchObject({ reqCount: from.length });
      expect(of('isp', place.isp), place.isp).toMatchObject({ reqCount: from.length });
    }
    const https = [...sent, ...probes].filter((s) => s.scheme === 'https');
    expect(of('protocol', 'https')).toMatchObject({ reqCount: https.length, traffic: sum(https, bytes) });
    expect(of('status', '404')).toMatchObject({ reqCount: 2 });
    expect(of('cacheStatus', 'HIT')).toMatchObject({ reqCount: 2 });
    const all = [...sent, ...probes];
    const blacklisted = all.filter((s) => [ABUSER, PROBE_ABUSER].includes(s.ip));
    const bots = all.filter((s) => s.agent.startsWith('evilbot'));
    expect(blacklisted.every((s) => s.status === 929) && bots.every((s) => s.status === 929)).toBe(true);
    expect(of('blockCause', 'blacklist')).toMatchObject({ reqCount: blacklisted.length, blocked: blacklisted.length, traffic: sum(blacklisted, bytes) });
    expect(of('blockCause', 'acl')).toMatchObject({ reqCount: bots.length, blocked: bots.length, traffic: sum(bots, bytes) });
    expect(of('url', '/img/logo.png')).toMatchObject({ reqCount: 3 });
  });

  it('agrees across cards, the time series and the domain list', async () => {
    const { server } = stack;
    const info = (await api(server, 'POST', 'user/statistics/info', { token: user, body: filter })).body.data;
    const series = (await api(server, 'POST', 'user/statistics/timeSeries', { token: user, body: filter })).body;
    const list = (await api(server, 'POST', 'user/statistics/list', { token: user, body: { ...filter, groupBy: 'domain' } })).body;
    const points = series.data as { reqCount: number; traffic: number; cacheHits: number; blocked: number }[];
    const host = list.data.find((r: { key: string }) => r.key === HOST);
    expect(info.cards.reqCount).toBe(points.reduce((n, p) => n + p.reqCount, 0));
    expect(info.cards.totalTraffics).toBe(points.reduce((n, p) => n + p.traffic, 0));
    expect(info.cards.blocked).toBe(points.reduce((n, p) => n + p.blocked, 0));
    expect(host).toMatchObject({ reqCount: info.cards.reqCount, traffic: info.cards.totalTraffics, blocked: info.cards.blocked });
    // China: the CN address's requests and bytes; the probes came from 127.0.0.1 (no country)
    const china = sent.filter((s) => PLACES[s.ip]?.country === 'CN');
    expect(info.cards).toMatchObject({ chinaReq: china.length, chinaTraffics: sum(china, bytes), chinaCount: 0 });
    expect(info.cards.blocked).toBeGreaterThanOrEqual(4);
    expect(info.window).toMatchObject({ reportInterval: 5 });
  });

  it('finds each line in the access and WAF logs, with what refused the blocked ones', async () => {
    const { server } = stack;
    const window = { startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString(), pageSize: 100 };
    const access = (await api(server, 'POST', 'user/logs/access', { token: user, body: window })).body;
    const fromMix = (access.data as { remoteIP: string; uri: string; status: number; bytesSent: number; protocol: string }[]).filter((l) => l.uri !== '/probe');
    expect(fromMix).toHaveLength(sent.length);
    expect(fromMix.map((l) => [l.remoteIP, l.uri, l.status, l.bytesSent, l.protocol])).toEqual(
      [...sent].reverse().map((s) => [s.ip, s.path, s.status, s.bytes, s.scheme]),
    );
    const waf = (await api(server, 'POST', 'user/logs/waf', { token: user, body: { ...window, remoteIP: '127.0.0.3' } })).body;
    expect(waf.total).toBe(2);
    expect(waf.data[0]).toMatchObject({ cause: 'acl', action: 'deny', remoteIP: '127.0.0.3', status: 929 });
    expect(waf.data[0].module).not.toBe('');
    const black = (await api(server, 'POST', 'user/logs/waf', { token: user, body: { ...window, remoteIP: ABUSER } })).body;
    expect(black.data.map((l: { cause: string }) => l.cause)).toEqual(['blacklist', 'blacklist']);
  });

  it('exports the same lines to a gzip CSV file', async () => {
    const { server } = stack;
    const body = { type: 'access', startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString() };
    const applied = (await api(server, 'POST', 'user/log/export/file', { token: user, body })).body.data;
    const done = await until('the export to complete', async () => {
      const e = (await api(server, 'GET', `user/log/export/${applied.id}`, { token: user })).body.data;
      return e.status === 'completed' ? e : undefined;
    });
    const file = await fetch(`${server.url}/api/v1/user/log/export/file/${applied.id}`, { headers: { authorization: `Bearer ${user}` } });
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.csv\.gz"/);
    const csv = gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8').trim().split('\n');
    const rows = csv.slice(1).filter((l) => !l.includes(',/probe,'));
    expect(rows).toHaveLength(sent.length);
    expect(done.rows).toBe(csv.length - 1);
  });

  it('shows another tenant none of it', async () => {
    const { server, ids } = stack;
    const info = (await api(server, 'POST', 'user/statistics/info', { token: stranger, body: filter })).body.data;
    expect(info.cards).toMatchObject({ reqCount: 0, totalTraffics: 0, blocked: 0 });
    const window = { startTime: new Date(Date.now() - 3600_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString() };
    expect((await api(server, 'POST', 'user/logs/access', { token: stranger, body: window })).body).toEqual({ data: [], total: 0 });
    const foreign = await api(server, 'POST', 'user/statistics/info', { token: stranger, body: { ...filter, reservedSite: [ids.site] } });
    expect(foreign.status).toBe(404);
    const logs = await api(server, 'POST', 'user/logs/access', { token: stranger, body: { ...window, siteIDs: [ids.site] } });
    expect(logs.status).toBe(404);
  });
});
