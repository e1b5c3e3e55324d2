import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, PASSWORD, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('client-tier site users: removing users from sites in batch', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  let subA: number;
  let subB: number;
  const shared = async (siteId: number) => (await call(t, 'GET', `user/site/users/${siteId}`, { token: f.tokens.userA })).body.data.map((u: { id: number }) => u.id);
  const remove = (token: string, body: object) => call(t, 'DELETE', 'client/site/users', { token, body });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    second = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'blog', productID: f.a.product, userID: f.userA.id } })).body.data.id;
    const sub = async (token: string, email: string) => {
      const role = await call(t, 'POST', 'user/role', { token, body: { roleName: 'viewer', permissions: ['sites.view'] } });
      const made = await call(t, 'POST', 'user/account', { token, body: { email, name: email.split('@')[0], roleID: role.body.data.id, password: PASSWORD } });
      return made.body.data.id as number;
    };
    [subA, subB] = [await sub(f.tokens.userA, 'sub-a@example.com'), await sub(f.tokens.userB, 'sub-b@example.com')];
    await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userA, body: { siteIDs: [f.a.site, second], userIDs: [subA] } });
  });
  afterAll(() => t.close());

  it('removes the users from every chosen site', async () => {
    expect(await shared(f.a.site)).toEqual([subA]);
    expect((await remove(f.tokens.clientA, { ids: [f.a.site, second], userIDs: [subA] })).status).toBe(200);
    expect(await shared(f.a.site)).toEqual([]);
    expect(await shared(second)).toEqual([]);
    expect((await remove(f.tokens.clientA, { ids: [f.a.site], userIDs: [subA] })).status).toBe(200);
  });

  it('validates the body, refuses a site owner, and changes nothing on bad input', async () => {
    await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userA, body: { siteIDs: [f.a.site], userIDs: [subA] } });
    for (const body of [{ ids: [], userIDs: [subA] }, { ids: [f.a.site], userIDs: [] }, { ids: ['x'], userIDs: [subA] }, { ids: [f.a.site] }]) {
      expect((await remove(f.tokens.clientA, body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    const owner = await remove(f.tokens.clientA, { ids: [f.a.site], userIDs: [subA, f.userA.id] });
    expect([owner.status, owner.body.code]).toEqual([400, 101003]);
    expect(await shared(f.a.site)).toEqual([subA]);
  });

  it("never reaches another client's sites or users", async () => {
    const missing = await remove(f.tokens.clientB, { ids: [999999], userIDs: [subB] });
    expect(missing.status).toBe(404);
    expect((await remove(f.tokens.clientB, { ids: [f.a.site], userIDs: [subB] })).body).toEqual(missing.body);
    expect((await remove(f.tokens.clientB, { ids: [f.b.site], userIDs: [subA] })).body.code).toBe(101003);
    expect((await call(t, 'DELETE', 'client/site/users', { token: f.tokens.userA, body: { ids: [f.a.site], userIDs: [subA] } })).status).toBe(401);
    expect(await shared(f.a.site)).toEqual([subA]);
  });
});
