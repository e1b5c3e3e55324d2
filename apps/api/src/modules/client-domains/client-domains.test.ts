import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane("the client's domains listing", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const names = (body: { data?: { name: string }[] }) => (body.data ?? []).map((d) => d.name);
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const add = (token: string, site: number, domains: string) =>
      call(t, 'POST', `user/site/${site}/domains`, { token, body: { domains, upstreams: [{ host: '198.51.100.7' }] } });
    await add(f.tokens.userA, f.a.site, 'shop.example.com\nblog.example.com');
    await add(f.tokens.userB, f.b.site, 'other.example.org');
    await t.deps.db.updateTable('domains').set({ tags: JSON.stringify(['eu', 'vip']) }).where('name', '=', 'shop.example.com').execute();
    await t.deps.db.updateTable('domains').set({ status: 0, force_ssl: 1 }).where('name', '=', 'blog.example.com').execute();
  });
  afterAll(() => t.close());

  it("lists the domains of its users' sites with site and owner, filtered and sorted", async () => {
    const all = await call(t, 'GET', 'client/domains?sortBy=name&orderBy=asc', { token: f.tokens.clientA });
    expect(all.body.total).toBe(2);
    expect(all.body.data[0]).toMatchObject({ name: 'blog.example.com', siteID: f.a.site, siteName: 'site-a', userID: f.userA.id, userEmail: 'user-a@example.com', status: 0, forceSSL: true });
    expect(all.body.data[1]).toMatchObject({ name: 'shop.example.com', tags: ['eu', 'vip'], status: 1, forceSSL: false, protocol: 'http', siteStatus: 1 });
    const q = (query: string) => call(t, 'GET', `client/domains?${query}`, { token: f.tokens.clientA });
    expect(names((await q('keywords=SHOP')).body)).toEqual(['shop.example.com']);
    expect(names((await q('tags=vip')).body)).toEqual(['shop.example.com']);
    expect(names((await q('status=0')).body)).toEqual(['blog.example.com']);
    expect(names((await q('forceSSL=true')).body)).toEqual(['blog.example.com']);
    expect((await q(`siteID=${f.a.site}&pageSize=1&page=2&sortBy=name&orderBy=desc`)).body).toMatchObject({ total: 2, data: [{ name: 'blog.example.com' }] });
    expect((await q(`userID=${f.userB.id}`)).body.total).toBe(0);
    expect((await q('sortBy=password')).body.code).toBe(101003);
    expect((await q('status=5')).body.code).toBe(101003);
  });

  it('answers the meta list and the sorted tags', async () => {
    const meta = await call(t, 'GET', 'client/domains/meta', { token: f.tokens.clientA });
    expect(meta.body.data).toEqual([expect.objectContaining({ name: 'blog.example.com', siteID: f.a.site }), expect.objectContaining({ name: 'shop.example.com' })]);
    expect((await call(t, 'GET', 'client/domains/tags', { token: f.tokens.clientA })).body.data).toEqual(['eu', 'vip']);
  });

  it("never shows another client's domains, nor to a user token", async () => {
    expect(names((await call(t, 'GET', 'client/domains', { token: f.tokens.clientB })).body)).toEqual(['other.example.org']);
    expect((await call(t, 'GET', `client/domains?siteID=${f.b.site}`, { token: f.tokens.clientA })).body.total).toBe(0);
    expect((await call(t, 'GET', 'client/domains/tags', { token: f.tokens.clientB })).body.data).toEqual([]);
    expect((await call(t, 'GET', 'client/domains', { token: f.tokens.userA })).status).toBe(401);
  });
});
