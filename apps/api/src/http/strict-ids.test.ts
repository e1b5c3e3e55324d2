import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { licenseTerms } from '../../test/license-fixtures';

lane('ids are positive integers, strictly', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  it('a body takes JSON numbers only: no arrays, strings or booleans read as an id', async () => {
    const license = (await call(t, 'POST', 'license', { token: f.tokens.admin, body: licenseTerms() })).body.data.id as number;
    for (const ids of [[[license]], [[String(license)]], [String(license)], [true], [license + 0.5]]) {
      const r = await call(t, 'DELETE', 'license', { token: f.tokens.admin, body: { ids } });
      expect([r.status, r.body.code], JSON.stringify(ids)).toEqual([400, 101003]);
    }
    expect((await call(t, 'GET', 'license', { token: f.tokens.admin })).body.data.map((x: { id: number }) => x.id)).toContain(license);
    for (const id of [true, [f.a.node], String(f.a.node), 0, -1]) {
      const r = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id } });
      expect([r.status, r.body.code], JSON.stringify(id)).toEqual([400, 101003]);
    }
    expect((await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id: f.a.node } })).status).toBe(200);
  });

  it('a path or query takes digits only', async () => {
    for (const bad of ['1e0', '0x1', '01', '+1', '1.0', ' 1']) {
      const r = await call(t, 'GET', `user/site/${encodeURIComponent(bad.replace('1', String(f.a.site)))}/domains`, { token: f.tokens.userA });
      expect([r.status, r.body.code], bad).toEqual([400, 101003]);
    }
    expect((await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).status).toBe(200);
    expect((await call(t, 'GET', `client/sites?userID=${f.userA.id}`, { token: f.tokens.clientA })).status).toBe(200);
    expect((await call(t, 'GET', 'client/sites?userID=1e0', { token: f.tokens.clientA })).body.code).toBe(101003);
  });
});
