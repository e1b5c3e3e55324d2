import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

/** Deep pages of the domain lists come from kept ordered lists: each must equal the same page read with an offset. */
lane('deep pages of the domain lists', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  const ids = (body: { data?: { id: number }[] }) => (body.data ?? []).map((d) => d.id);
  /** The page as offset paging reads it, straight from the tables. */
  const naive = async (o: { sites: number[]; column: 'created_at' | 'name'; order: 'asc' | 'desc'; page: number; like?: string }) => {
    let q = t.deps.db.selectFrom('domains').select('id').where('site_id', 'in', o.sites);
    if (o.like) q = q.where('name', 'like', o.like);
    const rows = await q.orderBy(o.column, o.order).orderBy('id', o.order).limit(20).offset((o.page - 1) * 20).execute();
    return rows.map((r) => r.id);
  };
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    second = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'second', productID: f.a.product, userID: f.userA.id } })).body.data.id;
    for (let i = 0; i < 1200; i += 200) {
      const rows = Array.from({ length: 200 }, (_, k) => {
        const n = i + k;
        // A few distinct creation times, many equal: ties fall to the id.
        const at = new Date(Date.UTC(2026, 10, 1 + (n % 7))).toISOString();
        return { site_id: n % 3 ? f.a.site : second, name: `d${(n * 7919) % 1200}.deep.example.com`, status: 1 as const, protocol: 'http' as const, force_ssl: 0 as const, hsts: 0 as const, tags: '[]', created_at: at, updated_at: at };
      });
      await t.deps.db.insertInto('domains').values(rows).execute();
    }
  });
  afterAll(() => t.close());

  it("answers the client's page 45 as offset paging does, in each order and filtered", async () => {
    const sites = [f.a.site, second];
    const page = (q: string) => call(t, 'GET', `client/domains?pageSize=20&${q}`, { token: f.tokens.clientA });
    for (const _ of [1, 2]) {
      const first = await page('page=45');
      expect(first.body.total).toBe(1200);
      expect(ids(first.body)).toEqual(await naive({ sites, column: 'created_at', order: 'desc', page: 45 }));
    }
    expect(ids((await page('page=45&sortBy=name&orderBy=asc')).body)).toEqual(await naive({ sites, column: 'name', order: 'asc', page: 45 }));
    const filtered = await page('page=3&keywords=D1');
    expect(filtered.body.total).toBe(311);
    expect(ids(filtered.body)).toEqual(await naive({ sites, column: 'created_at', order: 'desc', page: 3, like: '%d1%' }));
    expect(ids((await page(`page=20&siteID=${second}&sortBy=name&orderBy=desc`)).body)).toEqual(await naive({ sites: [second], column: 'name', order: 'desc', page: 20 }));
  });

  it("answers a site's page 30 as offset paging does", async () => {
    const page = await call(t, 'GET', `user/site/${f.a.site}/domains?page=30&pageSize=20&sortBy=name&orderBy=desc`, { token: f.tokens.userA });
    expect(page.body.total).toBe(800);
    expect(ids(page.body)).toEqual(await naive({ sites: [f.a.site], column: 'name', order: 'desc', page: 30 }));
  });

  it('shows a change at once: a domain added or removed, a site renamed', async () => {
    const list = (q = '') => call(t, 'GET', `client/domains?pageSize=20&${q}`, { token: f.tokens.clientA });
    const siteList = () => call(t, 'GET', `user/site/${second}/domains?pageSize=20`, { token: f.tokens.userA });
    await list();
    await siteList();
    const added = await call(t, 'POST', `user/site/${second}/domains`, { token: f.tokens.userA, body: { domains: 'new.deep.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    const id = added.body.data[0].id as number;
    const after = (await list()).body;
    expect([after.total, after.data[0].name]).toEqual([1201, 'new.deep.example.com']);
    const siteAfter = (await siteList()).body;
    expect([siteAfter.total, siteAfter.data[0].id]).toEqual([401, id]);
    await call(t, 'DELETE', `user/site/${second}/domains`, { token: f.tokens.userA, body: { ids: [id] } });
    expect((await list()).body.total).toBe(1200);
    expect(ids((await siteList()).body)).not.toContain(id);

    const bySite = async () => (await list('sortBy=siteName&orderBy=asc')).body.data[0].siteID as number;
    expect(await bySite()).toBe(second);
    expect((await call(t, 'PATCH', 'client/site', { token: f.tokens.clientA, body: { id: second, name: 'z-last' } })).status).toBe(200);
    expect(await bySite()).toBe(f.a.site);
  });

  it("never shows them to another tenant, however deep the page", async () => {
    expect((await call(t, 'GET', 'client/domains?page=45&pageSize=20', { token: f.tokens.clientB })).body).toEqual({ data: [], total: 0 });
    expect((await call(t, 'GET', `client/domains?page=2&siteID=${f.a.site}`, { token: f.tokens.clientB })).body.total).toBe(0);
    const foreign = await call(t, 'GET', `user/site/${f.a.site}/domains?page=30&pageSize=20`, { token: f.tokens.userB });
    expect(foreign.status).not.toBe(200);
    expect(foreign.body.data).toBeUndefined();
  });
});
