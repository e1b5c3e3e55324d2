import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

/** Each site's domain count is kept by the database; the lists answer their totals from it when nothing narrows them. */
lane("sites' kept domain counts and the lists' totals", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let second: number;
  const upstreams = [{ host: '198.51.100.7' }];
  const add = (site: number, domains: string) => call(t, 'POST', `user/site/${site}/domains`, { token: f.tokens.userA, body: { domains, upstreams } });
  const countOf = async (site: number) => (await call(t, 'GET', `user/site/${site}`, { token: f.tokens.userA })).body.data.domainCount as number;
  const siteTotal = async (site: number, q = '') => (await call(t, 'GET', `user/site/${site}/domains?${q}`, { token: f.tokens.userA })).body.total as number;
  const clientTotal = async (q = '', token = f.tokens.clientA) => (await call(t, 'GET', `client/domains?${q}`, { token })).body.total as number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    second = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'second', productID: f.a.product, userID: f.userA.id } })).body.data.id;
    await add(f.a.site, 'a1.example.com\na2.example.com\na3.example.com');
    await add(second, 'b1.example.com');
    await call(t, 'POST', `user/site/${f.b.site}/domains`, { token: f.tokens.userB, body: { domains: 'other.example.org', upstreams } });
  });
  afterAll(() => t.close());

  it('follow domains added and removed, in the site, the user’s sites and the lists', async () => {
    expect([await countOf(f.a.site), await countOf(second)]).toEqual([3, 1]);
    const sites = (await call(t, 'GET', 'user/sites', { token: f.tokens.userA })).body.data as { id: number; domainCount: number }[];
    expect(sites.map((s) => [s.id, s.domainCount]).sort()).toEqual([[f.a.site, 3], [second, 1]].sort());
    expect([await siteTotal(f.a.site), await clientTotal(), await clientTotal('', f.tokens.clientB)]).toEqual([3, 4, 1]);
    const listed = (await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).body.data as { id: number; name: string }[];
    await call(t, 'DELETE', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { ids: [listed.find((d) => d.name === 'a2.example.com')!.id] } });
    expect([await countOf(f.a.site), await siteTotal(f.a.site), await clientTotal()]).toEqual([2, 2, 3]);
  });

  it('a refused batch leaves the count as it was', async () => {
    expect((await add(f.a.site, 'a9.example.com\na1.example.com')).body.code).toBe(101009);
    expect(await countOf(f.a.site)).toBe(2);
  });

  it('follow a domain moved to another site, whoever writes it', async () => {
    const [moved] = await t.deps.db.selectFrom('domains').select('id').where('name', '=', 'a3.example.com').execute();
    await t.deps.db.updateTable('domains').set({ site_id: second }).where('id', '=', moved.id).execute();
    expect([await countOf(f.a.site), await countOf(second), await clientTotal()]).toEqual([1, 2, 3]);
  });

  it('totals of filtered lists count what the filters keep; the site and user filters add up the kept counts', async () => {
    expect(await siteTotal(second, 'keywords=b1')).toBe(1);
    expect(await clientTotal('keywords=a3.')).toBe(1);
    expect(await clientTotal(`siteID=${second}`)).toBe(2);
    expect(await clientTotal(`userID=${f.userA.id}`)).toBe(3);
    expect(await clientTotal(`siteID=${f.b.site}`)).toBe(0);
    expect(await clientTotal(`userID=${f.userB.id}&status=1`)).toBe(0);
  });

  it('a removed site takes its domains and its count with it', async () => {
    await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [second], status: 0 } });
    expect((await call(t, 'DELETE', 'client/site', { token: f.tokens.clientA, body: { ids: [second] } })).status).toBe(200);
    expect([await clientTotal(), await countOf(f.a.site)]).toEqual([1, 1]);
    expect(await t.deps.db.selectFrom('domains').select('id').where('site_id', '=', second).execute()).toEqual([]);
  });
});
