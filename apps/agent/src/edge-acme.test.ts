import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from './apply/process';
import { controlStatus } from './control/client';
import { createApplier, type Applier } from './sync/applier';
import { selfSignedCertificate } from './test/certificates';
import { nginxForTests } from './test/nginx-harness';
import { freePort, get, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

describe.skipIf(!nginx.ok)('ACME HTTP-01 answers pushed as data', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let prefix: string;
  let stateDir: string;
  let applier: Applier;
  let httpPort: number;
  let httpsPort: number;
  let revision = 1;
  let cert: { chain: string; key: string };

  const stateWith = (acmeChallenges: edge.AcmeChallenge[]) =>
    edge.desiredState.parse({
      revision: revision++,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 2 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: 'shop.example.com', certificateId: 5, forceSSL: true, origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 12, name: 'new.example.com', certificateId: null, origins: [{ host: '127.0.0.1', port: origin.port }] },
            ],
          },
        ],
      },
      // Everyone is blacklisted: the CA's validator must still get its answer.
      data: { certificates: [{ id: 5, ...cert }], sites: [{ siteId: 1, blacklist: ['0.0.0.0/0'] }], acmeChallenges },
    });
  const challenge = (host: string, token: string) => get({ port: httpPort, host, path: `/.well-known/acme-challenge/${token}` });
  const loads = async () => (await controlStatus({ control: await applier.control() })).loads;

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    cert = await selfSignedCertificate({ host: 'shop.example.com' });
    prefix = await mkdtemp(join(tmpdir(), 'ek-acme-prefix-'));
    stateDir = await mkdtemp(join(tmpdir(), 'ek-acme-state-'));
    applier = createApplier({ prefix, stateDir, controlPort: await freePort() });
    expect(await applier.apply(stateWith([]))).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    if (prefix) await stopNginx({ prefix });
    await origin?.close();
    await Promise.all([prefix, stateDir].map((d) => d && rm(d, { recursive: true, force: true })));
  });

  it('answers a pushed token for its name only, past the firewall and the force-SSL redirect, without a reload', async () => {
    const before = await loads();
    expect((await challenge('shop.example.com', 'tok-1')).status).toBe(404);
    const pushed = await applier.apply(stateWith([
      { name: 'shop.example.com', token: 'tok-1', keyAuthorization: 'tok-1.thumbprint' },
      { name: 'new.example.com', token: 'tok-2', keyAuthorization: 'tok-2.thumbprint' },
    ]));
    expect(pushed).toMatchObject({ ok: true, reloaded: false });
    const shop = await challenge('shop.example.com', 'tok-1');
    expect(shop).toMatchObject({ status: 200, body: 'tok-1.thumbprint' });
    expect((await challenge('new.example.com', 'tok-2')).body).toBe('tok-2.thumbprint');
    expect((await challenge('new.example.com', 'tok-1')).status).toBe(404);
    expect((await get({ port: httpPort, host: 'shop.example.com', path: '/cart' })).status).toBe(301);
    expect((await get({ port: httpPort, host: 'new.example.com', path: '/cart' })).status).toBe(929);
    expect(await applier.apply(stateWith([]))).toMatchObject({ ok: true, reloaded: false });
    expect((await challenge('shop.example.com', 'tok-1')).status).toBe(404);
    expect(await loads()).toBe(before);
  });
});
