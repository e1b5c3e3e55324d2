import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus } from './control/client';
import { createApplier, type Applier } from './sync/applier';
import { selfSignedCertificate } from './test/certificates';
import { nginxForTests } from './test/nginx-harness';
import { freePort, get, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

type Pem = { chain: string; key: string };

/** The subject CN of the certificate nginx shows in a fresh handshake for an SNI name. */
const servedCN = ({ port, servername }: { port: number; servername: string }) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const cn = socket.getPeerCertificate().subject?.CN;
      socket.end();
      resolve(Array.isArray(cn) ? cn.join(',') : (cn ?? ''));
    });
    socket.setTimeout(5000, () => socket.destroy(new Error('no handshake')));
    socket.once('error', reject);
  });

describe.skipIf(!nginx.ok)('certificates by SNI name, without reload', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpsPort: number;
  let httpPort: number;
  let revision = 1;
  const certs: Record<string, Pem> = {};

  const stateWith = ({ certificates, shopCert }: { certificates: ({ id: number } & Pem)[]; shopCert: number }) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 2 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: 'shop.example.com', certificateId: shopCert, origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 12, name: '*.wild.example.com', certificateId: 9, origins: [{ host: '127.0.0.1', port: origin.port }] },
            ],
          },
        ],
      },
      data: { certificates },
    });

  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    for (const [name, host, names] of [
      ['first', 'shop-first', ['shop.example.com']],
      ['second', 'shop-second', ['shop.example.com']],
      ['other', 'shop-other', ['shop.example.com']],
      ['wild', 'wildcard', ['*.wild.example.com']],
    ] as const) {
      certs[name] = await selfSignedCertificate({ host, names: [...names] });
    }
    prefix = await mkdtemp(join(tmpdir(), 'ek-sni-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-sni-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    const first = await applier.apply(stateWith({ shopCert: 5, certificates: [{ id: 5, ...certs.first }, { id: 9, ...certs.wild }] }));
    expect(first).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('serves each name its certificate: exact name, wildcard, and the default for an unknown name', async () => {
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-first');
    expect(await servedCN({ port: httpsPort, servername: 'a.wild.example.com' })).toBe('wildcard');
    expect(await servedCN({ port: httpsPort, servername: 'unknown.example.org' })).toBe('edgekeep-default');
    const res = await get({ port: httpsPort, host: 'shop.example.com', path: '/cart', ca: certs.first.chain });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ origin: 'shop', url: '/cart' });
  });

  it('takes a replaced certificate at the next handshake, without reloading nginx', async () => {
    const before = await loads();
    const result = await applier.apply(stateWith({ shopCert: 5, certificates: [{ id: 5, ...certs.second }, { id: 9, ...certs.wild }] }));
    expect(result).toEqual({ ok: true, revision: revision - 1, reloaded: false });
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-second');
    const res = await get({ port: httpsPort, host: 'shop.example.com', ca: certs.second.chain });
    expect(res.status).toBe(200);
    expect(await loads()).toBe(before);
  });

  it('switches a domain to another certificate without reloading nginx', async () => {
    const before = await loads();
    const result = await applier.apply(stateWith({ shopCert: 6, certificates: [{ id: 6, ...certs.other }, { id: 9, ...certs.wild }] }));
    expect(result).toMatchObject({ ok: true, reloaded: false });
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-other');
    expect(await servedCN({ port: httpsPort, servername: 'b.wild.example.com' })).toBe('wildcard');
    expect(await loads()).toBe(before);
  });

  it('serves the new content of a certificate that was dropped and comes back changed', async () => {
    await applier.apply(stateWith({ shopCert: 5, certificates: [{ id: 5, ...certs.first }, { id: 9, ...certs.wild }] }));
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-first');
    await applier.apply(stateWith({ shopCert: 6, certificates: [{ id: 6, ...certs.second }, { id: 9, ...certs.wild }] }));
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-second');
    await applier.apply(stateWith({ shopCert: 6, certificates: [{ id: 6, ...certs.other }, { id: 9, ...certs.wild }] }));
  });

  it('keeps the certificates across a restart of nginx, and private keys out of the logs', async () => {
    await applier.restart();
    expect(await servedCN({ port: httpsPort, servername: 'shop.example.com' })).toBe('shop-other');
    const logs = (await Promise.all(['logs/error.log', 'logs/access.json'].map((f) => readFile(join(prefix, f), 'utf8').catch(() => '')))).join('\n');
    for (const pem of Object.values(certs)) expect(logs).not.toContain(pem.key.split('\n')[1]);
  });
});
