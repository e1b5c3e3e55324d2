import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { pebbleInstalled, startPebble, type Pebble } from '../../../test/pebble';
import { powerDnsInstalled, startPowerDns, type PowerDns } from '../../../test/powerdns';
import { dnsProvider } from '../dns/provider';
import { requiredInCi } from '../../../../agent/src/test/required-in-ci';

const ready = requiredInCi(pebbleInstalled() && powerDnsInstalled(), 'DNS-01 through PowerDNS needs Debian pebble and pdns-server');

(ready ? lane : describe.skip)('automatic certificates: DNS-01 for a wildcard through the PowerDNS provider', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let pdns: PowerDns;
  let pebble: Pebble;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });

  beforeAll(async () => {
    pdns = await startPowerDns();
    // pebble validates DNS-01 by asking the provider's own server, as a public CA would ask the name's servers.
    pebble = await startPebble({ dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    t = await startTestApp({ ACME_QUEUE_SECONDS: '3600' });
    f = await makeInfra(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
    await pdns?.stop();
  });

  it('publishes the challenge at PowerDNS, gets the wildcard certificate, and removes the record afterwards', async () => {
    const provider = { type: 'powerdns', apiUrl: pdns.apiUrl, apiKey: pdns.apiKey, serverID: 'localhost', ttl: 30 };
    expect((await client('PUT', 'client/setting/dns', provider)).status).toBe(200);
    const ca = { provider: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle, email: 'ops@example.com' };
    expect((await client('PUT', 'client/setting/system/zeroSSL', ca)).status).toBe(200);
    const dns = await dnsProvider(t.deps, { clientId: f.clientA.id });
    await dns!.ensureZone('example.org');

    const made = await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: '*.wild.example.org', upstreams: [{ host: '198.51.100.7' }] } });
    const id = made.body.data[0].id as number;
    // Switching auto SSL on runs the queue in the background at once, through the provider of the DNS settings.
    await call(t, 'POST', `user/site/${f.a.site}/domain/setting/autoSSL`, { token: f.tokens.userA, body: { ids: [id], autoSSL: true } });
    const rowOf = () => t.deps.db.selectFrom('auto_certificates').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
    await vi.waitFor(async () => expect(await rowOf()).toMatchObject({ status: 'completed', claimed_by: null }), { timeout: 30_000, interval: 100 });
    const row = await t.deps.db.selectFrom('auto_certificates').selectAll().where('domain_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', challenge: 'dns-01', last_error: null });
    const cert = await t.deps.db.selectFrom('certificates').select('chain').where('id', '=', row.certificate_id!).executeTakeFirstOrThrow();
    expect(new crypto.X509Certificate(cert.chain).subjectAltName).toBe('DNS:*.wild.example.org');
    expect(pdns.dig('_acme-challenge.wild.example.org', 'TXT')).toEqual([]);
  });
});
