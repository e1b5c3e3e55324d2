import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, makeTenants, postgresReachable, startTestApp, type TestApp } from '../../../test/harness';
import { foreignSigner, licenseTerms, tamper } from '../../../test/license-fixtures';
import { readLicense, signLicense } from './license-key';
import { licenseSigner } from './signing-key';

const lane = (await postgresReachable()) ? describe : describe.skip;

const decode = (request: string) => JSON.parse(Buffer.from(request.slice('EKREQ1.'.length), 'base64url').toString('utf8'));
const encode = (fields: object) => `EKREQ1.${Buffer.from(JSON.stringify(fields)).toString('base64url')}`;

lane('offline licenses', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const admin = (method: string, url: string, body?: unknown) => call(t, method, url, { token: f.tokens.admin, body });
  const client = (token: string, method: string, url: string, body?: unknown) => call(t, method, url, { token, body });
  const register = async (token: string) => (await client(token, 'POST', 'client/license/registration')).body.data;
  const issueFor = async (request: string, over: Record<string, unknown> = {}) =>
    (await admin('POST', 'license/offline/issuing', { request, ...licenseTerms({ name: 'Offline', ...over }) })).body.data;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t, { licensed: false });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  it('register → issue → activate → renew, through the API', async () => {
    const reg = await register(f.tokens.clientA);
    const installationID = licenseSigner(t.dataDir).keyId;
    expect(reg).toMatchObject({ clientID: f.clientA.id, installationID, nonce: expect.stringMatching(/^[\w-]{32}$/) });
    expect(decode(reg.request)).toEqual({ clientID: f.clientA.id, installationID, nonce: reg.nonce, createdAt: reg.createdAt });

    const issued = await issueFor(`${reg.request}\n`, { portType: '7', days: 100 });
    expect(issued).toMatchObject({ kind: 'offline', clientID: f.clientA.id, clientName: 'client-a', installationID, key: expect.stringMatching(/^EK1\./) });
    const listed = await admin('GET', `license/offlines?clientID=${f.clientA.id}`);
    expect(listed.body).toMatchObject({ total: 1, data: [{ id: issued.id, key: issued.key }] });
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).body.code).toBe(101022);

    const activated = await client(f.tokens.clientA, 'PUT', 'offline/license', { key: `${issued.key}\n` });
    expect(activated.body.data).toMatchObject({ id: issued.id, kind: 'offline', name: 'Offline', portType: '7', daysLeft: 100, installationID, key: issued.key });
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).body.data).toEqual(activated.body.data);
    const again = await client(f.tokens.clientA, 'PUT', 'offline/license', { key: issued.key });
    expect(again.body).toMatchObject({ code: 900001, extra: 'does not answer the pending registration request' });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5000 });
    const renewed = (await admin('PUT', 'license/offline', { id: issued.id, days: 465 })).body.data;
    expect(renewed.key).not.toBe(issued.key);
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).body.data.days).toBe(100);
    const updated = await client(f.tokens.clientA, 'PUT', `offline/license/updateKey?key=${encodeURIComponent(renewed.key)}`);
    expect(updated.body.data).toMatchObject({ days: 465, daysLeft: 465, key: renewed.key });
    const rollback = await client(f.tokens.clientA, 'PUT', `offline/license/updateKey?key=${issued.key}`);
    expect(rollback.body).toMatchObject({ code: 900001, extra: 'older than the active key' });
    expect((await client(f.tokens.clientA, 'PUT', 'offline/license/updateKey')).body.code).toBe(101003);
    const other = await issueFor((await register(f.tokens.clientA)).request);
    const swap = await client(f.tokens.clientA, 'PUT', `offline/license/updateKey?key=${other.key}`);
    expect(swap.body).toMatchObject({ code: 900001, extra: 'a key of another license' });
  });

  it('refuses keys that do not belong to this client, installation and registration', async () => {
    const regB = await register(f.tokens.clientB);
    const forB = await issueFor(regB.request);
    const theft = await client(f.tokens.clientA, 'PUT', 'offline/license', { key: forB.key });
    expect(theft.body).toMatchObject({ code: 900001, extra: 'issued to another client' });

    const regA = await register(f.tokens.clientA);
    const elsewhere = await issueFor(encode({ ...decode(regA.request), installationID: 'ffffffffffffffff', nonce: 'n'.repeat(32) }));
    const moved = await client(f.tokens.clientA, 'PUT', 'offline/license', { key: elsewhere.key });
    expect(moved.body).toMatchObject({ code: 900001, extra: 'issued for another installation' });

    const stale = await issueFor(regA.request);
    await register(f.tokens.clientA);
    expect((await client(f.tokens.clientA, 'PUT', 'offline/license', { key: stale.key })).body.code).toBe(900001);

    const online = await admin('POST', 'license', licenseTerms());
    const onlineKey = (await admin('POST', 'license/issuing', { id: online.body.data.id, clientID: f.clientB.id })).body.data.key;
    const wrongKind = await client(f.tokens.clientB, 'PUT', 'offline/license', { key: onlineKey });
    expect(wrongKind.body).toMatchObject({ code: 900001, extra: 'not an offline license' });
    expect((await client(f.tokens.clientB, 'PUT', `offline/license/updateKey?key=${forB.key}`)).body).toMatchObject({ code: 101022 });
  });

  it("refuses a changed key (900001), another license server's key (101024) and text that is no key (101003)", async () => {
    const reg = await register(f.tokens.clientB);
    const issued = await issueFor(reg.request);
    const doc = readLicense(licenseSigner(t.dataDir), issued.key);
    const put = (key: string) => client(f.tokens.clientB, 'PUT', 'offline/license', { key });
    expect((await put(tamper(issued.key, 7, 999))).body.code).toBe(900001);
    expect((await put(signLicense(foreignSigner(), doc))).body.code).toBe(101024);
    for (const text of ['hello', 'EK1.a.b', ' ']) {
      const r = await put(text);
      expect([r.status, r.body.code], text).toEqual([400, 101003]);
    }
    expect((await put('EK1.a.b.c')).body).toMatchObject({ code: 101003, extra: 'invalid license key' });
    expect((await client(f.tokens.clientB, 'PUT', 'offline/license/updateKey?key=garbage')).body).toMatchObject({ code: 101022 });
    expect((await admin('GET', `license?clientID=${f.clientB.id}`)).body.total).toBe(1);
    expect((await put(issued.key)).status).toBe(200);
    expect((await admin('GET', `license?clientID=${f.clientB.id}`)).body.total, 'the online license is taken back').toBe(0);
    const bad = await client(f.tokens.clientB, 'PUT', 'offline/license/updateKey?key=garbage');
    expect(bad.body).toEqual({ code: 101003, message: expect.any(String), extra: 'invalid license key' });
  });

  it('refuses bad, foreign-client and repeated registration requests', async () => {
    const reg = await register(f.tokens.clientA);
    for (const request of ['nope', 'EKREQ1.!!', encode({ clientID: f.clientA.id }), encode({ ...decode(reg.request), extra: 1 })]) {
      const r = await admin('POST', 'license/offline/issuing', { request, ...licenseTerms() });
      expect(r.body, request).toMatchObject({ code: 101003, extra: { fields: [{ field: 'request', message: 'invalid registration request' }] } });
    }
    const unknown = await admin('POST', 'license/offline/issuing', { request: encode({ ...decode(reg.request), clientID: f.userA.id }), ...licenseTerms() });
    expect([unknown.status, unknown.body.extra]).toEqual([404, 'client not found']);
    expect((await admin('POST', 'license/offline/issuing', { request: reg.request, ...licenseTerms({ days: 0 }) })).body.code).toBe(101003);
    await issueFor(reg.request);
    const twice = await admin('POST', 'license/offline/issuing', { request: reg.request, ...licenseTerms() });
    expect([twice.status, twice.body.code]).toEqual([409, 101025]);
  });

  it('unregistering or removing an offline license leaves the client without one', async () => {
    const reg = await register(f.tokens.clientA);
    const issued = await issueFor(reg.request, { name: 'Released' });
    expect((await client(f.tokens.clientA, 'PUT', 'offline/license', { key: issued.key })).status).toBe(200);
    expect((await admin('DELETE', 'license/offline/register', { ids: [issued.id, 999_999] })).status).toBe(404);
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).status).toBe(200);
    expect((await admin('DELETE', 'license/offline/register', { ids: [issued.id] })).status).toBe(200);
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).body.code).toBe(101022);
    const released = (await admin('GET', 'license/offlines?name=released')).body.data[0];
    expect(released).toMatchObject({ id: issued.id, clientID: f.clientA.id, installationID: null, key: null, expiredAt: null });
    await register(f.tokens.clientA);
    expect((await client(f.tokens.clientA, 'PUT', 'offline/license', { key: issued.key })).body.code).toBe(900001);
    expect((await admin('PUT', 'license/offline', { id: issued.id, name: 'Still here' })).body.data).toMatchObject({ name: 'Still here', key: null });

    const reg2 = await register(f.tokens.clientA);
    const second = await issueFor(reg2.request, { name: 'Removed' });
    await client(f.tokens.clientA, 'PUT', 'offline/license', { key: second.key });
    expect((await admin('PUT', 'license', { id: second.id, name: 'x' })).status).toBe(404);
    expect((await admin('DELETE', 'license', { ids: [second.id] })).status).toBe(404);
    expect((await admin('DELETE', 'license/offline', { ids: [second.id] })).status).toBe(200);
    expect((await client(f.tokens.clientA, 'GET', 'client/license')).body.code).toBe(101022);
    expect((await admin('GET', 'license/offlines?name=removed')).body.total).toBe(0);
  });
});
