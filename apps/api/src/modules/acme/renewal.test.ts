import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ariCertId, renewAtOf } from './renewal';

const DAY = 86_400_000;

/** A certificate with the authority key identifier and serial of RFC 9773's example. */
async function certificate({ notBefore, notAfter }: { notBefore: Date; notAfter: Date }) {
  x509.cryptoProvider.set(crypto.webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0087654321', name: 'CN=ari.example.com', keys, signingAlgorithm: alg, notBefore, notAfter,
    extensions: [new x509.AuthorityKeyIdentifierExtension('69885b6b87464041e1b37b847ba0ae2cde01c8d4')],
  });
  return cert.toString('pem');
}

describe('renewal time', () => {
  let server: http.Server;
  let base = '';
  const window = { start: new Date(Date.now() + 40 * DAY).toISOString(), end: new Date(Date.now() + 41 * DAY).toISOString() };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/ari/dir') return res.end(JSON.stringify({ newOrder: `${base}/new-order`, renewalInfo: `${base}/renewal-info` }));
      if (req.url === '/plain/dir') return res.end(JSON.stringify({ newOrder: `${base}/new-order` }));
      if (req.url === '/renewal-info/aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE') return res.end(JSON.stringify({ suggestedWindow: window }));
      res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it("names a certificate for ARI as RFC 9773's example does", async () => {
    expect(ariCertId(await certificate({ notBefore: new Date(), notAfter: new Date(Date.now() + 90 * DAY) }))).toBe('aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE');
  });

  it("renews inside the CA's suggested window where the directory offers renewal information", async () => {
    const notBefore = new Date();
    const notAfter = new Date(Date.now() + 90 * DAY);
    const chain = await certificate({ notBefore, notAfter });
    const at = Date.parse(await renewAtOf({ chain, notBefore: notBefore.toISOString(), notAfter: notAfter.toISOString(), directoryUrl: `${base}/ari/dir` }));
    expect(at).toBeGreaterThanOrEqual(Date.parse(window.start));
    expect(at).toBeLessThanOrEqual(Date.parse(window.end));
  });

  it('renews 30 days before expiry without ARI, and with a third of the lifetime left for short-lived certificates', async () => {
    const notBefore = new Date();
    const notAfter = new Date(Date.now() + 90 * DAY);
    const chain = await certificate({ notBefore, notAfter });
    const plain = await renewAtOf({ chain, notBefore: notBefore.toISOString(), notAfter: notAfter.toISOString(), directoryUrl: `${base}/plain/dir` });
    expect(Date.parse(plain)).toBe(notAfter.getTime() - 30 * DAY);
    const short = new Date(notBefore.getTime() + 6 * DAY);
    const sixDays = await renewAtOf({ chain, notBefore: notBefore.toISOString(), notAfter: short.toISOString(), directoryUrl: `${base}/plain/dir` });
    expect(Date.parse(sixDays)).toBe(short.getTime() - 2 * DAY);
  });
});
