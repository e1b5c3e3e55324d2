import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './test/certificates';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort, get, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua and stream modules');

describe.skipIf(!nginx.ok)('edge node serving HTTPS', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let cert: { chain: string; key: string };
  let httpPort: number;
  let httpsPort: number;

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    cert = await selfSignedCertificate({ host: 'shop.example.com' });
    [httpPort, httpsPort] = [await freePort(), await freePort()];
    const state = edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [httpPort], httpsPorts: [httpsPort], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              {
                id: 11,
                name: 'shop.example.com',
                forceSSL: true,
                hsts: true,
                certificateId: 5,
                origins: [{ host: '127.0.0.1', port: origin.port }],
              },
              { id: 12, name: 'plain.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
            ],
          },
        ],
      },
      data: { certificates: [{ id: 5, ...cert }] },
    });
    node = await startEdge({ state, controlPort: await freePort() });
  });

  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('redirects HTTP to HTTPS when force SSL is on', async () => {
    const res = await get({ port: httpPort, host: 'shop.example.com', path: '/cart?x=1' });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`https://shop.example.com:${httpsPort}/cart?x=1`);
  });

  it('serves the domain over TLS with its certificate, and sends HSTS', async () => {
    const res = await get({ port: httpsPort, host: 'shop.example.com', path: '/cart', ca: cert.chain });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ origin: 'shop', url: '/cart' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('serves a domain without a certificate over HTTP only, without HSTS', async () => {
    const res = await get({ port: httpPort, host: 'plain.example.com' });
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
