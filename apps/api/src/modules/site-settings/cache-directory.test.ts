import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane("a site's own cache directory", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let neighbour = 0;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const product = f.a.product;
    neighbour = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'neighbour', productID: product, userID: f.userA.id } })).body.data.id;
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const put = (body: unknown, { site = f.a.site, token = f.tokens.userA } = {}) => call(t, 'PUT', `user/site/${site}/cacheRule/settings`, { token, body });
  const settings = async (site = f.a.site) => (await call(t, 'GET', `user/site/${site}/settings`, { token: f.tokens.userA })).body.data;
  const siteState = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites.find((s) => s.id === f.a.site);

  it('uses the shared cache until the site names a directory, and offers one under the cache folder per site', async () => {
    expect((await settings()).cache).toEqual({ ignoreQuery: false, directory: null, defaultDirectory: `/var/cache/nginx/edgekeep/site-${f.a.site}` });
    expect((await settings(neighbour)).cache.defaultDirectory).toBe(`/var/cache/nginx/edgekeep/site-${neighbour}`);
    expect((await siteState())?.options.cache).toEqual({ ignoreQuery: false, directory: null });
  });

  it('keeps the directory it is given (without a trailing slash) and hands it to the nodes of the zone', async () => {
    const set = await put({ ignoreQuery: true, directory: '/var/cache/nginx/edgekeep/shop/' });
    expect(set.status).toBe(200);
    expect(set.body.data.cache).toEqual({ ignoreQuery: true, directory: '/var/cache/nginx/edgekeep/shop', defaultDirectory: `/var/cache/nginx/edgekeep/site-${f.a.site}` });
    expect((await settings()).cache.directory).toBe('/var/cache/nginx/edgekeep/shop');
    expect((await siteState())?.options.cache).toEqual({ ignoreQuery: true, directory: '/var/cache/nginx/edgekeep/shop' });
  });

  it('refuses a path outside the cache folder, or one nginx could misread, and changes nothing', async () => {
    const before = await settings();
    for (const directory of [
      '/etc/nginx', '/var/cache/nginx/edgekeep', '/var/cache/nginx/edgekeepx/a', 'var/cache/nginx/edgekeep/a', '/var/cache/nginx/edgekeep/../../etc',
      '/var/cache/nginx/edgekeep/a b', '/var/cache/nginx/edgekeep/a;b', '/var/cache/nginx/edgekeep/"a"', `/var/cache/nginx/edgekeep/${'a'.repeat(200)}`, 5,
    ]) {
      const answer = await put({ ignoreQuery: false, directory });
      expect(answer.body.code, String(directory)).toBe(101003);
      expect(answer.body.extra.fields ?? answer.body.extra, String(directory)).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('directory') })]));
    }
    expect(await settings()).toEqual(before);
  });

  it("refuses another site's directory of the zone, or one inside or around it", async () => {
    for (const directory of ['/var/cache/nginx/edgekeep/shop', '/var/cache/nginx/edgekeep/shop/more']) {
      const answer = await put({ directory }, { site: neighbour });
      expect(answer.body.code, directory).toBe(101025);
    }
    await put({ directory: '/var/cache/nginx/edgekeep/shop/more' }, { site: f.a.site });
    expect((await put({ directory: '/var/cache/nginx/edgekeep/shop' }, { site: neighbour })).body.code).toBe(101025);
    expect((await settings(neighbour)).cache.directory).toBeNull();
    expect((await put({ directory: '/var/cache/nginx/edgekeep/shop-2' }, { site: neighbour })).body.data.cache.directory).toBe('/var/cache/nginx/edgekeep/shop-2');
    // Another zone's sites run on other nodes: the same path is theirs to take.
    expect((await put({ directory: '/var/cache/nginx/edgekeep/shop/more' }, { site: f.b.site, token: f.tokens.userB })).status).toBe(200);
  });

  it('goes back to the shared cache on null', async () => {
    expect((await put({ ignoreQuery: false, directory: null })).body.data.cache.directory).toBeNull();
    expect((await siteState())?.options.cache).toEqual({ ignoreQuery: false, directory: null });
  });

  it("refuses another user's site exactly as a missing one, and changes nothing", async () => {
    const missing = await call(t, 'PUT', 'user/site/999999/cacheRule/settings', { token: f.tokens.userB, body: { directory: '/var/cache/nginx/edgekeep/x' } });
    expect(missing.status).toBe(404);
    expect((await put({ directory: '/var/cache/nginx/edgekeep/x' }, { token: f.tokens.userB })).body).toEqual(missing.body);
    expect((await call(t, 'GET', `user/site/${f.a.site}/settings`, { token: f.tokens.userB })).status).toBe(404);
    expect((await settings()).cache.directory).toBeNull();
  });
});
