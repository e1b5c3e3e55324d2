import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, PASSWORD, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('user-tier sites: filters, products, sharing with sub-users', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  let sub: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const product = (await call(t, 'POST', 'client/product', { token: f.tokens.clientA, body: { name: 'gold', zoneID: f.a.zone, groupID: f.a.group, bandwidth: 100, siteLimit: 5 } })).body.data.id;
    second = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'blog', productID: product, userID: f.userA.id, tags: ['news', 'vip'] } })).body.data.id;
    await call(t, 'PUT', `user/site/${f.a.site}/tags`, { token: f.tokens.userA, body: { tags: ['vip'] } });
    await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 0 } });
    const role = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'editor', permissions: ['sites.view', 'sites.edit'] } });
    const created = await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { email: 'sub@example.com', name: 'sub', roleID: role.body.data.id, password: PASSWORD } });
    sub = { id: created.body.data.id, token: (await signIn(t, 'user', 'sub@example.com')).accessToken };
  });
  afterAll(() => t.close());

  const names = (r: { body: { data?: { name: string }[] } }) => (r.body.data ?? []).map((s) => s.name).sort();

  it('filters the sites by status (-1 all), name, tags and product, and pages them', async () => {
    const list = (q: string) => call(t, 'GET', `user/sites?${q}`, { token: f.tokens.userA });
    expect(names(await list('status=-1'))).toEqual(['blog', 'site-a']);
    expect(names(await list('status=0'))).toEqual(['site-a']);
    expect(names(await list('status=1'))).toEqual(['blog']);
    expect(names(await list('siteName=blo'))).toEqual(['blog']);
    expect(names(await list('tags=vip'))).toEqual(['blog', 'site-a']);
    expect(names(await list('tags=vip&tags=news'))).toEqual(['blog']);
    expect(names(await list(`productID=${f.a.product}`))).toEqual(['site-a']);
    const page = await list('page=2&pageSize=1');
    expect(page.body.total).toBe(2);
    expect(page.body.data).toHaveLength(1);
    for (const q of ['status=4', 'status=-2', 'productID=x', 'pageSize=0']) expect((await list(q)).body.code, q).toBe(101003);
    expect(names(await call(t, 'GET', 'user/sites', { token: f.tokens.userB }))).toEqual(['site-b']);
    expect((await call(t, 'GET', 'user/metaSites', { token: f.tokens.userA })).body.data.map((s: { name: string }) => s.name)).toEqual(['blog', 'site-a']);
  });

  it("lists the products of the user's sites with the fields a user may see", async () => {
    const all = await call(t, 'GET', 'user/products', { token: f.tokens.userA });
    expect(all.body.total).toBe(2);
    const gold = all.body.data.find((p: { name: string }) => p.name === 'gold');
    expect(gold).toMatchObject({ bandwidth: 100, siteLimit: 5, siteCount: 1 });
    expect(gold).not.toHaveProperty('zoneID');
    expect(gold).not.toHaveProperty('groupID');
    const one = await call(t, 'GET', `user/products?productIDs=${f.a.product}`, { token: f.tokens.userA });
    expect(one.body.data.map((p: { id: number }) => p.id)).toEqual([f.a.product]);
    expect((await call(t, 'GET', `user/products?productIDs=${f.a.product}`, { token: f.tokens.userB })).body).toEqual({ data: [], total: 0 });
    expect((await call(t, 'GET', 'user/products?productIDs=x', { token: f.tokens.userA })).body.code).toBe(101003);
  });

  it('shares sites with sub-users in batch; a sub-user reaches only what is shared with it', async () => {
    expect((await call(t, 'GET', 'user/sites', { token: sub.token })).body.total).toBe(0);
    expect((await call(t, 'GET', `user/site/${second}/settings`, { token: sub.token })).status).toBe(404);
    const share = await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userA, body: { siteIDs: [second, f.a.site], userIDs: [sub.id] } });
    expect(share.status).toBe(200);
    expect((await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userA, body: { siteIDs: [second], userIDs: [sub.id] } })).status).toBe(200);
    expect((await call(t, 'GET', `user/site/users/${second}`, { token: f.tokens.userA })).body.data).toEqual([{ id: sub.id, email: 'sub@example.com', name: 'sub' }]);
    expect(names(await call(t, 'GET', 'user/sites', { token: sub.token }))).toEqual(['blog', 'site-a']);
    expect((await call(t, 'GET', `user/site/${second}/settings`, { token: sub.token })).status).toBe(200);
    await call(t, 'DELETE', 'user/site/users', { token: f.tokens.userA, body: { siteIDs: [f.a.site], userIDs: [sub.id] } });
    expect(names(await call(t, 'GET', 'user/sites', { token: sub.token }))).toEqual(['blog']);
    expect((await call(t, 'GET', `user/site/users/${f.a.site}`, { token: f.tokens.userA })).body.data).toEqual([]);
  });

  it('refuses foreign sites and accounts that are not sub-users, changing nothing', async () => {
    for (const body of [
      { siteIDs: [second], userIDs: [f.userB.id] },
      { siteIDs: [second], userIDs: [f.userA.id] },
      { siteIDs: [second], userIDs: [f.clientA.id] },
      { siteIDs: [], userIDs: [sub.id] },
      { siteIDs: [second] },
    ]) {
      expect((await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    const missing = await call(t, 'GET', 'user/site/users/999999', { token: f.tokens.userB });
    expect(missing.status).toBe(404);
    expect((await call(t, 'GET', `user/site/users/${second}`, { token: f.tokens.userB })).body).toEqual(missing.body);
    expect((await call(t, 'PATCH', 'user/site/users', { token: f.tokens.userB, body: { siteIDs: [second], userIDs: [sub.id] } })).body).toEqual(missing.body);
    expect((await call(t, 'DELETE', 'user/site/users', { token: f.tokens.userB, body: { siteIDs: [second], userIDs: [sub.id] } })).body).toEqual(missing.body);
    expect((await call(t, 'PATCH', 'user/site/users', { token: sub.token, body: { siteIDs: [second], userIDs: [sub.id] } })).body.code).toBe(101003);
    expect((await call(t, 'GET', `user/site/users/${second}`, { token: f.tokens.userA })).body.data).toEqual([{ id: sub.id, email: 'sub@example.com', name: 'sub' }]);
  });
});
