import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';

lane('a query parameter a call does not take is refused', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const names = (body: { data?: { name: string }[] }) => (body.data ?? []).map((d) => d.name);
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com\nblog.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  it('`keyword` where the list takes `keywords`: 101003 naming it, not the whole list', async () => {
    for (const path of ['client/domains', `user/site/${f.a.site}/domains`]) {
      const token = path.startsWith('client') ? f.tokens.clientA : f.tokens.userA;
      const r = await call(t, 'GET', `${path}?keyword=shop`, { token });
      expect([r.status, r.body.code], path).toEqual([400, 101003]);
      expect(r.body.extra).toEqual({ fields: [{ in: 'query', field: 'keyword', message: 'not a parameter of this call' }] });
      expect(names((await call(t, 'GET', `${path}?keywords=shop`, { token })).body), path).toEqual(['shop.example.com']);
    }
  });

  it('names every unknown parameter, also on calls that take no query', async () => {
    const r = await call(t, 'GET', `client/domains?keywords=shop&keyword=shop&sort=name`, { token: f.tokens.clientA });
    expect(r.body.extra.fields.map((x: { field: string }) => x.field)).toEqual(['keyword', 'sort']);
    expect((await call(t, 'GET', 'user/metaSites?page=1', { token: f.tokens.userA })).body.code).toBe(101003);
    expect((await call(t, 'GET', 'user/metaSites', { token: f.tokens.userA })).status).toBe(200);
  });

  it('a change with an unknown parameter changes nothing', async () => {
    const listed = async () => (await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).body as { data: { id: number; name: string }[]; total: number };
    const before = await listed();
    const blog = before.data.find((d) => d.name === 'blog.example.com')!;
    const refused = await call(t, 'DELETE', `user/site/${f.a.site}/domains?force=true`, { token: f.tokens.userA, body: { ids: [blog.id] } });
    expect([refused.status, refused.body.code]).toEqual([400, 101003]);
    expect(await listed()).toEqual(before);
    expect((await call(t, 'DELETE', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { ids: [blog.id] } })).status).toBe(200);
    expect(names(await listed())).toEqual(['shop.example.com']);
  });

  it("another tenant's list is refused as before, whatever the query", async () => {
    const r = await call(t, 'GET', `user/site/${f.b.site}/domains?keywords=shop`, { token: f.tokens.userA });
    expect([r.status, r.body.code]).toEqual([404, 101003]);
  });
});
