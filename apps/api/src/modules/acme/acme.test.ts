import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as x509 from '@peculiar/x509';
import { buildNodeState } from '../../agent-gateway/state';
import { onWrite } from '../../db';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { grantLicense } from '../../../test/license-fixtures';
import { pebbleInstalled, startPebble, type Pebble } from '../../../test/pebble';
import { encrypt } from '../../lib/crypto';
import { runQueue } from './queue';
import { renewAtOf } from './renewal';
import * as repo from './repo';
import { requiredInCi } from '../../../../agent/src/test/required-in-ci';

const ready = requiredInCi(pebbleInstalled(), 'automatic certificates need Debian pebble and pebble-challtestsrv');
const EAB = { 'kid-1': 'zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W' };

/** A certificate issued 80 days ago that expires in 10: due for renewal. */
async function nearExpiry(name: string) {
  x509.cryptoProvider.set(crypto.webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01', name: `CN=${name}`, keys, signingAlgorithm: alg,
    notBefore: new Date(Date.now() - 80 * 86_400_000), notAfter: new Date(Date.now() + 10 * 86_400_000),
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: name }])],
  });
  const pkcs8 = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { chain: cert.toString('pem') + '\n', key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n` };
}

(ready ? lane : describe.skip)('automatic certificates against pebble', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let pebble: Pebble;
  let edge: http.Server;
  const served: string[] = [];

  /** Stands in for the zone's nodes: answers HTTP-01 from the desired state the API builds for them. */
  const startEdge = (port: number) =>
    new Promise<http.Server>((resolve) => {
      const server = http.createServer(async (req, res) => {
        const token = (req.url ?? '').replace('/.well-known/acme-challenge/', '');
        const host = (req.headers.host ?? '').split(':')[0];
        const states = await Promise.all([buildNodeState(t.deps, f.a.node), buildNodeState(t.deps, f.b.node)]);
        const hit = states.flatMap((s) => s.data.acmeChallenges).find((c) => c.name === host && c.token === token);
        if (hit) served.push(host);
        res.writeHead(hit ? 200 : 404).end(hit?.keyAuthorization ?? '');
      });
      server.listen(port, '127.0.0.1', () => resolve(server));
    });

  const domainOf = async (name: string, autoSSL = true, token = f.tokens.userA, site = f.a.site) => {
    const made = await call(t, 'POST', `user/site/${site}/domains`, { token, body: { domains: name, upstreams: [{ host: '198.51.100.7' }] } });
    const id = made.body.data[0].id as number;
    if (autoSSL) expect((await call(t, 'POST', `user/site/${site}/domain/setting/autoSSL`, { token, body: { ids: [id], autoSSL: true } })).status).toBe(200);
    return id;
  };
  const rowOf = (domainId: number) => t.deps.db.selectFrom('auto_certificates').selectAll().where('domain_id', '=', domainId).executeTakeFirstOrThrow();
  /** Until no live claim holds an order: switching auto SSL on starts the queue in the background at once. */
  const settled = () =>
    vi.waitFor(async () => expect(await t.deps.db.selectFrom('auto_certificates').select('id').where('claim_until', '>', new Date().toISOString()).execute()).toEqual([]), { timeout: 20_000, interval: 50 });
  const run = async (dns: Pebble['dns'] | null = null) => {
    await settled();
    await runQueue(t.deps, { dnsOf: async () => dns });
    await settled();
  };
  const usePebble = (token = f.tokens.clientA, eab = true) =>
    call(t, 'PUT', 'client/setting/system/zeroSSL', {
      token,
      body: { provider: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle, email: 'ops@example.com', ...(eab ? { eabKid: 'kid-1', eabHmacKey: EAB['kid-1'] } : {}) },
    });

  beforeAll(async () => {
    pebble = await startPebble({ eab: EAB });
    t = await startTestApp({ ACME_QUEUE_SECONDS: '3600' });
    f = await makeInfra(t);
    edge = await startEdge(pebble.httpPort);
  }, 60_000);
  afterAll(async () => {
    edge?.close();
    await t?.close();
    await pebble?.stop();
  });

  it('answers the provider settings with set flags, never the EAB key; a custom provider needs its directory', async () => {
    expect((await call(t, 'GET', 'client/setting/system/zeroSSL', { token: f.tokens.clientA })).body.data).toMatchObject({ provider: 'letsEncrypt', eabSet: false, accountRegistered: false });
    const bad = await call(t, 'PUT', 'client/setting/system/zeroSSL', { token: f.tokens.clientA, body: { provider: 'custom' } });
    expect(bad.body).toMatchObject({ code: 101003 });
    const half = await call(t, 'PUT', 'client/setting/system/zeroSSL', { token: f.tokens.clientA, body: { provider: 'zeroSSL', eabKid: 'kid-1' } });
    expect(half.body.code).toBe(101003);
    expect((await call(t, 'GET', 'client/setting/system/zeroSSL', { token: f.tokens.clientA })).body.data.provider).toBe('letsEncrypt');
    const google = await call(t, 'PUT', 'client/setting/system/googleTrust', { token: f.tokens.clientA, body: { eabKid: 'g-1', eabHmacKey: EAB['kid-1'] } });
    expect(google.body.data).toEqual({ eabKid: 'g-1', eabSet: true });
    expect(JSON.stringify((await call(t, 'GET', 'client/setting/system/googleTrust', { token: f.tokens.clientA })).body)).not.toContain(EAB['kid-1']);
    await vi.waitFor(async () => expect(await t.deps.db.selectFrom('audit_logs').select('body').where('url', 'like', '%googleTrust%').execute()).toHaveLength(1));
    expect(JSON.stringify(await t.deps.db.selectFrom('audit_logs').select('body').execute())).not.toContain(EAB['kid-1']);
    const users = await call(t, 'GET', 'client/setting/system/zeroSSL', { token: f.tokens.userA });
    expect(users.status).toBeGreaterThanOrEqual(400);
  });

  it('fails with the CA refusal and its own error when the CA wants an external account binding', async () => {
    expect((await usePebble(f.tokens.clientA, false)).status).toBe(200);
    const id = await domainOf('refused.example.com');
    await run();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', hint: 'ca', attempts: 1, certificate_id: null });
    expect(row.last_error).toMatch(/externalAccountBinding/);
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now());
    // the client is told, once per failing spell
    const notices = async () =>
      (await t.deps.db.selectFrom('notify_queue').select(['kind', 'payload']).where('kind', '=', 'certificate.failed').execute()).filter((n) => n.payload.includes('refused.example.com'));
    // a run settles the order, then tells the client: the queue started in the background may still be telling
    await vi.waitFor(async () => expect((await notices()).length).toBeGreaterThan(0));
    const told = (await notices()).length;
    await t.deps.db.updateTable('auto_certificates').set({ next_attempt_at: new Date(0).toISOString() }).where('domain_id', '=', id).execute();
    await run();
    expect((await notices()).length).toBe(told);
  });

  it('issues over HTTP-01 from the answer the zone is pushed, binds the certificate and hands it to the node', async () => {
    const saved = await usePebble();
    expect(saved.body.data).toMatchObject({ provider: 'custom', eabKid: 'kid-1', eabSet: true });
    expect(JSON.stringify(saved.body)).not.toContain(EAB['kid-1']);
    const id = await domainOf('shop.example.com');
    // the node's state before the order: the next one is built from it, reading again the sites the order marked
    const held = buildNodeState(t.deps, f.a.node);
    await held;
    await run();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'completed', hint: null, last_error: null, challenge: 'http-01' });
    expect(await buildNodeState(t.deps, f.a.node, held)).toEqual(await buildNodeState(t.deps, f.a.node));
    expect(served).toContain('shop.example.com');
    const domain = await t.deps.db.selectFrom('domains').select('certificate_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(domain.certificate_id).toBe(row.certificate_id);
    const state = await buildNodeState(t.deps, f.a.node);
    const cert = state.data.certificates.find((c) => c.id === row.certificate_id)!;
    expect(new crypto.X509Certificate(cert.chain).subjectAltName).toBe('DNS:shop.example.com');
    expect(new crypto.X509Certificate(cert.chain).issuer).toMatch(/Pebble/);
    expect(state.data.acmeChallenges).toEqual([]);
    expect(Date.parse(row.renew_at!)).toBe(Date.parse(row.not_after!) - 30 * 86_400_000);
    const account = await t.deps.db.selectFrom('acme_accounts').selectAll().where('client_id', '=', f.clientA.id).executeTakeFirstOrThrow();
    expect(account.account_key_sealed).not.toContain('PRIVATE KEY');
    expect(account.zerossl_eab).not.toContain(EAB['kid-1']);
    const listed = await call(t, 'GET', 'client/autoCertificates?keyword=shop', { token: f.tokens.clientA });
    expect(listed.body).toMatchObject({ total: 1, data: [{ domainName: 'shop.example.com', status: 'completed', siteName: 'site-a', budget: { registeredDomain: 'example.com', used: 1, limit: 50 } }] });
    const mine = await call(t, 'GET', `user/site/${f.a.site}/autoCertificates`, { token: f.tokens.userA });
    expect(mine.body.data.find((d: { domainName: string }) => d.domainName === 'shop.example.com')).toMatchObject({ status: 'completed', certificateId: row.certificate_id });
  });

  it('gives a wildcard the DNS hint without a provider, and issues it over DNS-01 through one', async () => {
    const id = await domainOf('*.wild.example.org');
    await run();
    expect(await rowOf(id)).toMatchObject({ status: 'failed', hint: 'wildcardDns', challenge: 'dns-01' });
    const row = await rowOf(id);
    expect((await call(t, 'POST', 'client/autoCertificates/renew', { token: f.tokens.clientA, body: { ids: [row.id] } })).body.data).toEqual({ queued: 1 });
    // Reapplying starts the queue at once, without a DNS provider here: the hint again.
    await vi.waitFor(async () => expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 1, claimed_by: null }), { timeout: 20_000, interval: 50 });
    await t.deps.db.updateTable('auto_certificates').set({ next_attempt_at: new Date(0).toISOString() }).where('id', '=', row.id).execute();
    await run(pebble.dns);
    const done = await rowOf(id);
    expect(done).toMatchObject({ status: 'completed', hint: null });
    const cert = await t.deps.db.selectFrom('certificates').selectAll().where('id', '=', done.certificate_id!).executeTakeFirstOrThrow();
    expect(JSON.parse(cert.names)).toEqual(['*.wild.example.org']);
    expect(pebble.dns.txt.size).toBe(0);
  });

  it('fails an unreachable name with the CNAME hint and the CA error; a failed renewal keeps the last good certificate serving', async () => {
    const id = await domainOf('down.example.net');
    await fetch(`${pebble.management}/add-a`, { method: 'POST', body: JSON.stringify({ host: 'down.example.net.', addresses: ['127.0.0.2'] }) });
    await run();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', hint: 'cname', certificate_id: null });
    expect(row.last_error).toMatch(/127\.0\.0\.2|connect/i);

    // A renewal that fails (here the budget: the CA may reuse a valid authorization, so an unreachable name would not fail it).
    const shop = await t.deps.db.selectFrom('auto_certificates').selectAll().where('name', '=', 'shop.example.com').executeTakeFirstOrThrow();
    const used = (await repo.budgetUsed(t.deps.db, ['example.com'])).get('example.com') ?? 0;
    for (let i = used; i < 50; i++) await t.deps.db.insertInto('acme_issuances').values({ client_id: f.clientA.id, registered_domain: 'example.com', name: `filler-${i}.example.com`, issued_at: new Date().toISOString() }).execute();
    await t.deps.db.updateTable('auto_certificates').set({ next_attempt_at: new Date(0).toISOString() }).where('id', '=', shop.id).execute();
    await run();
    expect(await rowOf(shop.domain_id)).toMatchObject({ status: 'failed', hint: 'budget', certificate_id: shop.certificate_id, not_after: shop.not_after });
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.data.certificates.map((c) => c.id)).toContain(shop.certificate_id);
    expect((await t.deps.db.selectFrom('domains').select('certificate_id').where('id', '=', shop.domain_id).executeTakeFirstOrThrow()).certificate_id).toBe(shop.certificate_id);
    await t.deps.db.deleteFrom('acme_issuances').where('name', 'like', 'filler-%').execute();
  });

  it('renews a certificate near its expiry in place: same certificate, new validity, still bound', async () => {
    const id = await domainOf('renew.example.com');
    await run();
    const old = await nearExpiry('renew.example.com');
    const row = await rowOf(id);
    const parsed = { subject: 'CN=renew.example.com', names: ['renew.example.com'], issuer: 'CN=renew.example.com', notBefore: new Date(Date.now() - 80 * 86_400_000).toISOString(), notAfter: new Date(Date.now() + 10 * 86_400_000).toISOString() };
    const certId = await repo.storeIssued(t.deps.db, { row, siteId: f.a.site, chain: old.chain, keySealed: encrypt(t.deps.secrets.dataKey, old.key), parsed });
    const renewAt = await renewAtOf({ chain: old.chain, notBefore: parsed.notBefore, notAfter: parsed.notAfter, directoryUrl: pebble.directoryUrl });
    expect(Date.parse(renewAt)).toBeLessThan(Date.now());
    await t.deps.db.updateTable('auto_certificates').set({ status: 'completed', certificate_id: certId, not_after: parsed.notAfter, renew_at: renewAt, next_attempt_at: renewAt }).where('id', '=', row.id).execute();
    await run();
    const renewed = await rowOf(id);
    expect(renewed).toMatchObject({ status: 'completed', certificate_id: certId });
    expect(Date.parse(renewed.not_after!)).toBeGreaterThan(Date.parse(parsed.notAfter));
    const cert = await t.deps.db.selectFrom('certificates').select(['chain', 'issuer']).where('id', '=', certId).executeTakeFirstOrThrow();
    expect(cert.issuer).toMatch(/Pebble/);
    expect((await t.deps.db.selectFrom('domains').select('certificate_id').where('id', '=', id).executeTakeFirstOrThrow()).certificate_id).toBe(certId);
  });

  it('refuses an order once the registered domain spent its 50 certificates in 7 days, and shows the budget', async () => {
    for (let i = 0; i < 50; i++) await t.deps.db.insertInto('acme_issuances').values({ client_id: f.clientA.id, registered_domain: 'busy.example', name: `n${i}.busy.example`, issued_at: new Date().toISOString() }).execute();
    const id = await domainOf('www.busy.example');
    await run();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', hint: 'budget' });
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const listed = await call(t, 'GET', 'client/autoCertificates?keyword=busy', { token: f.tokens.clientA });
    expect(listed.body.data[0].budget).toEqual({ registeredDomain: 'busy.example', used: 50, limit: 50 });
  });

  it('works one order per name: two racing runs order once, a live claim of another instance is left alone, a lapsed one is taken over after a restart', async () => {
    const id = await domainOf('race.example.com');
    await run();
    const due = new Date(0).toISOString();
    await t.deps.db.updateTable('auto_certificates').set({ next_attempt_at: due }).where('domain_id', '=', id).execute();
    await Promise.all([runQueue(t.deps, { dnsOf: async () => null }), runQueue(t.deps, { dnsOf: async () => null })]);
    // the queue's own run in the background may have claimed it first: one order, whichever run makes it
    await settled();
    expect((await t.deps.db.selectFrom('acme_issuances').select('id').where('name', '=', 'race.example.com').execute()).length).toBe(2);

    const held = { status: 'processing' as const, claimed_by: 'another-instance', next_attempt_at: due };
    await t.deps.db.updateTable('auto_certificates').set({ ...held, claim_until: new Date(Date.now() + 600_000).toISOString() }).where('domain_id', '=', id).execute();
    await runQueue(t.deps, { dnsOf: async () => null });
    expect(await rowOf(id)).toMatchObject({ status: 'processing', claimed_by: 'another-instance' });
    await t.deps.db.updateTable('auto_certificates').set({ ...held, claim_until: new Date(Date.now() - 1000).toISOString() }).where('domain_id', '=', id).execute();
    t = await t.restart();
    await run();
    expect(await rowOf(id)).toMatchObject({ status: 'completed', claimed_by: null });
    expect((await t.deps.db.selectFrom('acme_issuances').select('id').where('name', '=', 'race.example.com').execute()).length).toBe(3);
  });

  it('orders nothing for a disabled domain (the CA could not reach it) and orders once it is enabled', async () => {
    const id = await domainOf('paused.example.com', false);
    const status = (value: 0 | 1) => call(t, 'PUT', `user/site/${f.a.site}/domain/setting/status`, { token: f.tokens.userA, body: { ids: [id], status: value } });
    expect((await status(0)).status).toBe(200);
    expect((await call(t, 'POST', `user/site/${f.a.site}/domain/setting/autoSSL`, { token: f.tokens.userA, body: { ids: [id], autoSSL: true } })).status).toBe(200);
    await run();
    expect(await t.deps.db.selectFrom('auto_certificates').select('id').where('domain_id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await status(1)).status).toBe(200);
    await run();
    expect(await rowOf(id)).toMatchObject({ status: 'completed' });
  });

  it("drops a domain's queue row once auto SSL is off, and writes nothing to the queue when there is nothing to drop", async () => {
    const id = await domainOf('switched-off.example.com');
    await settled();
    expect((await call(t, 'POST', `user/site/${f.a.site}/domain/setting/autoSSL`, { token: f.tokens.userA, body: { ids: [id], autoSSL: false } })).status).toBe(200);
    const written: string[] = [];
    onWrite(t.deps.db, (tables) => written.push(...tables));
    await repo.syncQueue(t.deps.db);
    expect(await t.deps.db.selectFrom('auto_certificates').select('id').where('domain_id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(written).toContain('auto_certificates');
    // a scan with nothing to add or drop is no write: it would drop every kept answer that read the queue
    written.length = 0;
    await repo.syncQueue(t.deps.db);
    expect(written).toEqual([]);
  });

  it('turns auto SSL on only within the licence (401004) and refuses another tenant', async () => {
    await grantLicense(t.deps, f.clientA.id, { autoSSLLimit: 1 });
    const over = await domainOf('over.example.com', false);
    const refused = await call(t, 'POST', `user/site/${f.a.site}/domain/setting/autoSSL`, { token: f.tokens.userA, body: { ids: [over], autoSSL: true } });
    expect(refused.body.code).toBe(401004);
    await repo.syncQueue(t.deps.db);
    expect(await t.deps.db.selectFrom('auto_certificates').select('id').where('domain_id', '=', over).executeTakeFirst()).toBeUndefined();
    const row = await rowOf((await t.deps.db.selectFrom('domains').select('id').where('name', '=', 'race.example.com').executeTakeFirstOrThrow()).id);
    expect((await call(t, 'GET', 'client/autoCertificates', { token: f.tokens.clientB })).body.total).toBe(0);
    const foreign = await call(t, 'POST', 'client/autoCertificates/renew', { token: f.tokens.clientB, body: { ids: [row.id] } });
    expect(foreign.status).toBe(404);
    expect((await rowOf(row.domain_id)).status).toBe('completed');
    expect((await call(t, 'GET', `user/site/${f.a.site}/autoCertificates`, { token: f.tokens.userB })).status).toBe(404);
    expect((await call(t, 'GET', 'client/setting/system/zeroSSL', { token: f.tokens.clientB })).body.data).toMatchObject({ provider: 'letsEncrypt', eabSet: false });
  });
});
