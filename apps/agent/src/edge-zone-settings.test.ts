import { edge } from '@edgekeep/contract';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedIps, controlStatus, pushData } from './control/client';
import { luaData } from './render';
import { selfSignedCertificate } from './test/certificates';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { send } from './test/requests';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with Lua');

/** The protocol the HTTPS port agrees on by ALPN; '' when the handshake is refused. */
const alpn = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'shop.example.com', ALPNProtocols: ['h2', 'http/1.1'], rejectUnauthorized: false }, () => {
      resolve(String(socket.alpnProtocol));
      socket.end();
    });
    socket.on('error', () => resolve(''));
  });

describe.skipIf(!nginx.ok)('zone settings at the edge', () => {
  let origin: ReturnType<typeof createServer>;
  let originPort: number;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let httpPort: number;
  let httpsPort: number;
  let cert: { chain: string; key: string };

  const state = (zone: object = {}) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: {
          httpPorts: [httpPort],
          httpsPorts: [httpsPort],
          nginx: { workerProcesses: 1 },
          proxy: { connectTimeout: 3, sendTimeout: 7, readTimeout: 1, keepaliveTimeout: 9, buffering: false },
          http2: true,
          forceSSLRedirectCode: 307,
        },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: 'shop.example.com', forceSSL: true, certificateId: 5, origins: [{ host: '127.0.0.1', port: originPort }] },
              { id: 12, name: 'plain.example.com', origins: [{ host: '127.0.0.1', port: originPort }] },
            ],
          },
        ],
      },
      data: { certificates: [{ id: 5, ...cert }], zone },
    });
  const push = (zone: object, sites: object[] = []) => pushData({ control: node.control, data: { ...luaData({ state: state(zone) }), sites: sites as edge.SiteData[] } });
  const plain = (path = '/') => send({ port: httpPort, host: 'plain.example.com', path });
  const loads = async () => (await controlStatus({ control: node.control })).loads;

  beforeAll(async () => {
    origin = createServer((req, res) => {
      const answer = () => res.end(JSON.stringify({ url: req.url }));
      if (req.url === '/slow') setTimeout(answer, 2500);
      else answer();
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
    cert = await selfSignedCertificate({ host: 'shop.example.com' });
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    node = await startEdge({ state: state(), controlPort: await freePort() });
  });
  afterAll(async () => {
    await node?.stop();
    await new Promise((r) => origin?.close(r));
  });

  it('renders the custom proxy-pass timeouts, and the read timeout cuts a slow origin (504)', async () => {
    const conf = await readFile(join(node.prefix, 'conf', 'nginx.conf'), 'utf8');
    for (const line of ['proxy_connect_timeout 3s;', 'proxy_send_timeout 7s;', 'proxy_read_timeout 1s;', 'proxy_buffering off;']) expect(conf).toContain(line);
    expect((await plain('/fast')).status).toBe(200);
    expect((await plain('/slow')).status).toBe(504);
  });

  it("answers a domain's force-SSL redirect with the zone's code", async () => {
    const res = await send({ port: httpPort, host: 'shop.example.com', path: '/cart' });
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`https://shop.example.com:${httpsPort}/cart`);
  });

  it('agrees on HTTP/2 on the HTTPS port', async () => {
    expect(await alpn(httpsPort)).toBe('h2');
  });

  it('drops the addresses of the IP sets on every site, and a flush lets them in, without a reload', async () => {
    const before = await loads();
    await push({ ipset: ['10.9.9.9', '127.0.0.0/8'] });
    await expect(plain()).rejects.toThrow();
    await push({ ipset: [] });
    expect((await plain()).status).toBe(200);
    expect(await loads()).toBe(before);
  });

  it('skips the firewall while the zone switch is off: a blacklisted address is served', async () => {
    const sites = [{ siteId: 1, blacklist: ['127.0.0.1'], whitelist: [] }];
    await push({}, sites);
    expect((await plain()).status).toBe(929);
    await push({ firewall: false, ipset: ['127.0.0.1'] }, sites);
    expect((await plain()).status).toBe(200);
    await push({});
  });

  it("challenges with the zone's default anti-CC only the sites without anti-CC rules of their own", async () => {
    const zoneCc = { anticc: [{ id: 1, urlRegex: '^/zone-cc', seconds: 60, times: 2, type: 3 }] };
    await push(zoneCc);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await plain('/zone-cc/a')).status);
    expect(statuses).toEqual([200, 200, 978]);
    const own = [{ siteId: 1, blacklist: [], whitelist: [], waf: { acl: [], anticc: [{ id: 9, urlRegex: '^/own', seconds: 60, times: 100, type: 3 }] } }];
    await push(zoneCc, own);
    expect((await plain('/zone-cc/a')).status).toBe(200);
    await push({});
  });

  it('refuses TLS handshakes over the per-minute limit', async () => {
    await push({ tlsLimit: 2 });
    expect([await alpn(httpsPort), await alpn(httpsPort), await alpn(httpsPort)]).toEqual(['h2', 'h2', '']);
    await push({});
  });

  it('blocks an address that asks too often for hosts no site serves, on every site (cause invalidDomain)', async () => {
    await push({ invalidDomainLimit: 2 });
    const unknown = () => send({ port: httpPort, host: 'nobody.example.net' });
    expect((await unknown()).status).toBe(903);
    expect((await unknown()).status).toBe(903);
    await expect(unknown()).rejects.toThrow();
    await expect(plain()).rejects.toThrow();
    expect(await blockedIps({ control: node.control })).toEqual([expect.objectContaining({ siteId: 1, ip: '127.0.0.1', cause: 'invalidDomain' })]);
  });
});
