import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeAccount, makeTenants, postgresReachable, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { licenseTerms } from '../../../test/license-fixtures';

const lane = (await postgresReachable()) ? describe : describe.skip;

lane('admin licenses', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const admin = (method: string, url: string, body?: unknown) => call(t, method, url, { token: f.tokens.admin, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t, { licensed: false });
  });
  afterAll(() => t.close());

  it('creates, edits and removes a license; it has no key until issued', async () => {
    const made = await admin('POST', 'license', licenseTerms({ name: 'Starter', siteLimit: 0, startAt: '2026-01-01T00:00:00Z' }));
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      kind: 'online', name: 'Starter', days: 365, siteLimit: 0, nodeLimit: 5, zoneLimit: 2, domainLimit: 100, autoSSLLimit: 20, portLimit: 10,
      portType: '7+4', nodeMonitorSeconds: 30, startAt: '2026-01-01T00:00:00.000Z', clientID: null, key: null, expiredAt: null,
    });
    const id = made.body.data.id;
    const edited = await admin('PUT', 'license', { id, name: 'Starter 2', portType: '7', startAt: null });
    expect(edited.body.data).toMatchObject({ id, name: 'Starter 2', portType: '7', startAt: null, days: 365 });
    expect((await admin('DELETE', 'license', { ids: [id] })).status).toBe(200);
    expect((await admin('PUT', 'license', { id, name: 'gone' })).status).toBe(404);
    expect((await admin('DELETE', 'license', { ids: [id] })).body.code).toBe(101003);
  });

  it('refuses terms outside the rules with 101003 and the field', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['name', { name: '' }],
      ['name', { name: 'x'.repeat(65) }],
      ['days', { days: 0 }],
      ['days', { days: 1.5 }],
      ['days', { days: 36_501 }],
      ['siteLimit', { siteLimit: -1 }],
      ['nodeLimit', { nodeLimit: 1_000_001 }],
      ['zoneLimit', { zoneLimit: '3' }],
      ['domainLimit', { domainLimit: undefined }],
      ['autoSSLLimit', { autoSSLLimit: 0.5 }],
      ['portLimit', { portLimit: null }],
      ['portType', { portType: '4' }],
      ['nodeMonitorSeconds', { nodeMonitorSeconds: 0 }],
      ['nodeMonitorSeconds', { nodeMonitorSeconds: 86_401 }],
      ['startAt', { startAt: 'tomorrow' }],
    ];
    for (const [field, over] of bad) {
      const r = await admin('POST', 'license', licenseTerms(over));
      expect([r.status, r.body.code], field).toEqual([400, 101003]);
      expect(r.body.extra.fields.map((x: { field: string }) => x.field), field).toContain(field);
    }
    expect((await admin('PUT', 'license', { name: 'no id' })).body.extra.fields[0].field).toBe('id');
    expect((await admin('GET', 'license?name=', undefined)).body.total).toBe(0);
  });

  it('lists with paging, a name filter, a client filter and sort', async () => {
    for (const name of ['Gold', 'Silver', 'Bronze']) await admin('POST', 'license', licenseTerms({ name }));
    const all = await admin('GET', 'license?sortBy=name&orderBy=ascend');
    expect(all.body.data.map((x: { name: string }) => x.name)).toEqual(['Bronze', 'Gold', 'Silver']);
    const page = await admin('GET', 'license?pageSize=1&page=2&sortBy=name&orderBy=desc');
    expect(page.body).toMatchObject({ total: 3, data: [{ name: 'Gold' }] });
    expect((await admin('GET', 'license?name=OLD')).body.data.map((x: { name: string }) => x.name)).toEqual(['Gold']);
    expect((await admin('GET', 'license?sortBy=license_key')).body.code).toBe(101003);
    expect((await admin('GET', 'license?pageSize=501')).body.code).toBe(101003);
    const gold = all.body.data[1].id;
    await admin('POST', 'license/issuing', { id: gold, clientID: f.clientA.id });
    expect((await admin('GET', `license?clientID=${f.clientA.id}`)).body.data.map((x: { id: number }) => x.id)).toEqual([gold]);
    expect((await admin('GET', 'license/offlines')).body.total).toBe(0);
  });

  it('issues a license to a client: one active license per client, issuing again replaces it', async () => {
    const one = (await admin('POST', 'license', licenseTerms({ name: 'One', days: 30 }))).body.data;
    const two = (await admin('POST', 'license', licenseTerms({ name: 'Two', days: 60, startAt: '2026-06-01T00:00:00Z' }))).body.data;
    const issued = await admin('POST', 'license/issuing', { id: one.id, clientID: f.clientB.id });
    expect(issued.body.data).toMatchObject({ clientID: f.clientB.id, clientName: 'client-b', key: expect.stringMatching(/^EK1\./) });
    const days = (Date.parse(issued.body.data.expiredAt) - Date.parse(issued.body.data.issuedAt)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    const b = await call(t, 'GET', 'client/license', { token: f.tokens.clientB });
    expect(b.body.data).toMatchObject({ id: one.id, name: 'One', kind: 'online', expired: false, daysLeft: 30, key: issued.body.data.key });

    const replaced = await admin('POST', 'license/issuing', { id: two.id, clientID: f.clientB.id });
    expect(replaced.body.data.expiredAt).toBe('2026-07-31T00:00:00.000Z');
    expect((await call(t, 'GET', 'client/license', { token: f.tokens.clientB })).body.data).toMatchObject({ id: two.id, name: 'Two' });
    const old = await admin('GET', `license?name=One`);
    expect(old.body.data[0]).toMatchObject({ clientID: null, key: null, expiredAt: null });

    const moved = await admin('POST', 'license/issuing', { id: two.id, clientID: f.clientA.id });
    expect(moved.body.data.clientID).toBe(f.clientA.id);
    expect((await call(t, 'GET', 'client/license', { token: f.tokens.clientB })).body.code).toBe(101022);
  });

  it('signs an issued license again when it is edited; the client holds the new key at once', async () => {
    const lic = (await admin('POST', 'license', licenseTerms({ name: 'Edit me', siteLimit: 3 }))).body.data;
    const issued = (await admin('POST', 'license/issuing', { id: lic.id, clientID: f.clientB.id })).body.data;
    const edited = (await admin('PUT', 'license', { id: lic.id, siteLimit: 4, days: 10 })).body.data;
    expect(edited.key).not.toBe(issued.key);
    expect(edited.issuedAt).toBe(issued.issuedAt);
    const mine = await call(t, 'GET', 'client/license', { token: f.tokens.clientB });
    expect(mine.body.data).toMatchObject({ key: edited.key, usage: { site: { used: 0, limit: 4 } }, daysLeft: 10 });
  });

  it('refuses issuing to anything but a root client, and unknown licenses', async () => {
    const lic = (await admin('POST', 'license', licenseTerms({ name: 'Target' }))).body.data;
    const sub = await makeAccount(t, { auth: 'client', email: 'sub-client@example.com', parentClientId: f.clientA.id });
    for (const clientID of [f.userA.id, f.admin.id, sub.id, 999_999]) {
      const r = await admin('POST', 'license/issuing', { id: lic.id, clientID });
      expect([r.status, r.body.code, r.body.extra], String(clientID)).toEqual([404, 101003, 'client not found']);
    }
    expect((await admin('POST', 'license/issuing', { id: 999_999, clientID: f.clientA.id })).status).toBe(404);
    expect((await admin('POST', 'license/issuing', { id: lic.id })).body.code).toBe(101003);
  });

  it("keeps each client's order records, replaced as a whole", async () => {
    const lic = (await admin('POST', 'license', licenseTerms({ name: 'Ordered' }))).body.data;
    await admin('POST', 'license/issuing', { id: lic.id, clientID: f.clientA.id });
    expect((await admin('GET', `license/${f.clientA.id}/order`)).body.data).toEqual([]);
    const orders = [
      { orderNo: 'PO-1', licenseID: lic.id, description: 'first year', amount: 1200.5, orderedAt: '2026-01-05T00:00:00Z' },
      { orderNo: 'PO-2', amount: 0, orderedAt: 1_790_000_000, memo: 'renewal' },
    ];
    const put = await admin('PUT', `license/${f.clientA.id}/order`, { orders });
    expect(put.body.data).toEqual([
      { id: expect.any(Number), orderNo: 'PO-2', licenseID: null, description: '', amount: 0, orderedAt: new Date(1_790_000_000_000).toISOString(), memo: 'renewal', createdAt: expect.any(String) },
      { id: expect.any(Number), orderNo: 'PO-1', licenseID: lic.id, description: 'first year', amount: 1200.5, orderedAt: '2026-01-05T00:00:00.000Z', memo: '', createdAt: expect.any(String) },
    ]);
    expect((await admin('GET', `license/${f.clientA.id}/order`)).body.data).toEqual(put.body.data);
    expect((await admin('GET', `license/${f.clientB.id}/order`)).body.data).toEqual([]);

    const foreign = await admin('PUT', `license/${f.clientB.id}/order`, { orders: [{ orderNo: 'X', licenseID: lic.id, amount: 1, orderedAt: 1_790_000_000 }] });
    expect(foreign.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'orders.licenseID' }] } });
    for (const bad of [{ orderNo: '', amount: 1, orderedAt: 1 }, { orderNo: 'A', amount: -1, orderedAt: 1 }, { orderNo: 'A', amount: 1 }, { orderNo: 'A', amount: 1, orderedAt: 1, memo: 'x'.repeat(257) }]) {
      expect((await admin('PUT', `license/${f.clientA.id}/order`, { orders: [bad] })).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await admin('GET', `license/${f.userA.id}/order`)).status).toBe(404);
    expect((await admin('PUT', `license/${f.userA.id}/order`, { orders: [] })).status).toBe(404);
    expect((await admin('PUT', `license/${f.clientA.id}/order`, { orders: [] })).body.data).toEqual([]);
  });

  it('refuses every admin license call to client and user tokens, and to admins without the permission', async () => {
    const viewerRole = await admin('POST', 'admin/role', { roleName: 'license viewer', permissions: ['licenses.view'] });
    await makeAccount(t, { auth: 'admin', email: 'viewer@example.com', roleId: viewerRole.body.data.id });
    const viewer = (await signIn(t, 'admin', 'viewer@example.com')).accessToken;
    const calls: [string, string, unknown?][] = [
      ['GET', 'license'], ['POST', 'license', licenseTerms()], ['PUT', 'license', { id: 1, name: 'x' }], ['DELETE', 'license', { ids: [1] }],
      ['POST', 'license/issuing', { id: 1, clientID: f.clientA.id }], ['GET', `license/${f.clientA.id}/order`],
      ['PUT', `license/${f.clientA.id}/order`, { orders: [] }], ['GET', 'license/offlines'], ['PUT', 'license/offline', { id: 1, name: 'x' }],
      ['DELETE', 'license/offline', { ids: [1] }], ['POST', 'license/offline/issuing', { request: 'x', ...licenseTerms() }],
      ['DELETE', 'license/offline/register', { ids: [1] }],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [f.tokens.clientA, f.tokens.userA]) {
        const r = await call(t, method, url, { token, body });
        expect([r.status, r.body.code], `${method} ${url}`).toEqual([401, 101013]);
      }
      expect((await call(t, method, url, { body })).status, `${method} ${url} without a token`).toBe(401);
      const asViewer = await call(t, method, url, { token: viewer, body });
      if (method === 'GET') expect(asViewer.status, `${method} ${url}`).toBe(200);
      else expect([asViewer.status, asViewer.body.code], `${method} ${url}`).toEqual([403, 101018]);
    }
  });

  it("never shows a client another client's license, and refuses the client calls to other tiers", async () => {
    const lic = (await admin('POST', 'license', licenseTerms({ name: 'A only' }))).body.data;
    await admin('POST', 'license/issuing', { id: lic.id, clientID: f.clientA.id });
    const a = await call(t, 'GET', 'client/license', { token: f.tokens.clientA });
    const b = await call(t, 'GET', 'client/license', { token: f.tokens.clientB });
    expect(a.body.data.name).toBe('A only');
    expect(b.body.data?.id).not.toBe(lic.id);
    expect(JSON.stringify(b.body)).not.toContain(a.body.data.key);
    for (const token of [f.tokens.admin, f.tokens.userA]) {
      expect((await call(t, 'GET', 'client/license', { token })).body.code).toBe(101013);
      expect((await call(t, 'PUT', 'offline/license', { token, body: { key: a.body.data.key } })).body.code).toBe(101013);
    }
    const staffRole = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'staff', permissions: ['system.view'] } });
    await makeAccount(t, { auth: 'client', email: 'staff@example.com', parentClientId: f.clientA.id, roleId: staffRole.body.data.id });
    const staff = (await signIn(t, 'client', 'staff@example.com')).accessToken;
    expect((await call(t, 'GET', 'client/license', { token: staff })).body.data.id).toBe(lic.id);
    expect((await call(t, 'POST', 'client/license/registration', { token: staff })).body.code).toBe(101018);
    expect((await call(t, 'PUT', 'offline/license', { token: staff, body: { key: a.body.data.key } })).body.code).toBe(101018);
  });

  it('leaves the client without a license when its license is removed', async () => {
    const lic = (await admin('POST', 'license', licenseTerms({ name: 'Doomed' }))).body.data;
    await admin('POST', 'license/issuing', { id: lic.id, clientID: f.clientB.id });
    await admin('DELETE', 'license', { ids: [lic.id] });
    const r = await call(t, 'GET', 'client/license', { token: f.tokens.clientB });
    expect([r.status, r.body.code]).toEqual([403, 101022]);
  });

  it('made its key pair on first start and never lets the private key out', async () => {
    const pem = fs.readFileSync(path.join(t.dataDir, 'keys', 'license-ed25519.pem'), 'utf8');
    const secret = pem.split('\n')[1];
    const answers = [await admin('GET', 'license?pageSize=500'), await admin('GET', 'license/offlines'), await admin('GET', '../docs/json')];
    for (const r of answers) expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(t.logLines.join('')).not.toContain(secret);
  });
});
