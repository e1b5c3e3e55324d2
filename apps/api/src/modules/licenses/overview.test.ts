import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeTenants, postgresReachable, startTestApp, type TestApp } from '../../../test/harness';
import { licenseTerms } from '../../../test/license-fixtures';

const lane = (await postgresReachable()) ? describe : describe.skip;

lane('admin dashboard license calls', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const admin = (method: string, url: string, body?: unknown) => call(t, method, url, { token: f.tokens.admin, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t, { licensed: false });
  });
  afterAll(() => t.close());

  it('counts root clients, licenses, issued ones and those expiring within 30 days', async () => {
    expect((await admin('GET', 'license/overview')).body.data).toEqual({ clients: 2, licenses: 0, issued: 0, expiringSoon: 0 });
    const soon = (await admin('POST', 'license', licenseTerms({ name: 'Soon', days: 10 }))).body.data;
    const later = (await admin('POST', 'license', licenseTerms({ name: 'Later', days: 365 }))).body.data;
    await admin('POST', 'license', licenseTerms({ name: 'Shelf', days: 5 }));
    await admin('POST', 'license/issuing', { id: soon.id, clientID: f.clientA.id });
    await admin('POST', 'license/issuing', { id: later.id, clientID: f.clientB.id });
    expect((await admin('GET', 'license/overview')).body.data).toEqual({ clients: 2, licenses: 3, issued: 2, expiringSoon: 1 });
  });

  it("answers a client's usage against its limits, 101022 without a license, 404 for what is no root client", async () => {
    const usage = await admin('GET', `license/${f.clientA.id}/usage`);
    expect(usage.body.data).toMatchObject({ name: 'Soon', daysLeft: 10, usage: { site: { used: 0, limit: 10 }, node: { used: 0, limit: 5 } } });
    const client = await call(t, 'GET', 'client/license', { token: f.tokens.clientA });
    expect(usage.body.data).toEqual(client.body.data);
    await admin('DELETE', 'license', { ids: [usage.body.data.id] });
    expect((await admin('GET', `license/${f.clientA.id}/usage`)).body.code).toBe(101022);
    expect((await admin('GET', `license/${f.userA.id}/usage`)).status).toBe(404);
  });

  it('refuses both calls to client and user tokens (another tier: 101013)', async () => {
    for (const token of [f.tokens.clientA, f.tokens.userA]) {
      for (const url of ['license/overview', `license/${f.clientB.id}/usage`]) {
        const r = await call(t, 'GET', url, { token });
        expect([r.status, r.body.code], url).toEqual([401, 101013]);
      }
    }
  });
});
