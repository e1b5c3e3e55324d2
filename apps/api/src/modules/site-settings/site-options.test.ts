import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('rate rules, HSTS, body size, compression, cache key and ports', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'PUT', `client/zone/${f.a.zone}/ports`, { token: f.tokens.clientA, body: { httpPorts: [80, 8080], httpsPorts: [443, 8443] } });
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/${path}`;
  const settings = async () => (await call(t, 'GET', url('settings'), { token: f.tokens.userA })).body.data;
  const siteState = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites[0];

  it('adds, changes and removes rate rules on URLs of the site, and the node limits those answers', async () => {
    const added = await call(t, 'POST', url('rate'), { token: f.tokens.userA, body: { url: 'https://shop.example.com/downloads/', rate: 200 } });
    expect(added.body.data.rates).toEqual([{ id: expect.any(Number), url: 'https://shop.example.com/downloads/', rate: 200 }]);
    const id = added.body.data.rates[0].id;
    for (const [body, code] of [
      [{ url: 'https://shop.example.com/downloads/', rate: 100 }, 101025],
      [{ url: 'https://shop.example.com/downloads', rate: 100 }, 101003],
      [{ url: 'https://shop.example.com/*/', rate: 100 }, 101003],
      [{ url: 'https://shop.example.com/a"b/', rate: 100 }, 101003],
      [{ url: 'https://shop.example.com/a;b{/', rate: 100 }, 101003],
      [{ url: 'https://other.example.com/', rate: 100 }, 101003],
      [{ url: 'https://shop.example.com/a/', rate: 0 }, 101003],
      [{ url: 'https://shop.example.com/a/', rate: 1.5 }, 101003],
      [{ url: 'https://shop.example.com/a/' }, 101003],
    ] as const) {
      expect((await call(t, 'POST', url('rate'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(code);
    }
    expect((await settings()).rates).toHaveLength(1);
    const changed = await call(t, 'PUT', url('rate'), { token: f.tokens.userA, body: { id, url: 'https://shop.example.com/big/', rate: 64 } });
    expect(changed.body.data.rates).toEqual([{ id, url: 'https://shop.example.com/big/', rate: 64 }]);
    expect((await siteState()).options.rateRules).toEqual([{ url: 'https://shop.example.com/big/', rate: 64 }]);
    expect((await call(t, 'PUT', url('rate'), { token: f.tokens.userA, body: { id: 999999, url: 'https://shop.example.com/x/', rate: 1 } })).status).toBe(404);
    expect((await call(t, 'DELETE', url('rates'), { token: f.tokens.userA, body: { ids: [id, 999999] } })).status).toBe(404);
    expect((await call(t, 'DELETE', url('rates'), { token: f.tokens.userA, body: { ids: [id] } })).body.data.rates).toEqual([]);
  });

  it('sets HSTS with its parameters and warns while no domain serves HTTPS', async () => {
    const on = await call(t, 'PUT', url('setting/hsts'), { token: f.tokens.userA, body: { enabled: true, maxAge: 600, includeSubDomains: true, preload: false } });
    expect(on.body.data).toMatchObject({ hsts: { enabled: true, maxAge: 600, includeSubDomains: true, preload: false }, httpsEnabled: false, warning: 'httpsDisabled' });
    expect((await siteState()).options.hsts).toEqual({ enabled: true, maxAge: 600, includeSubDomains: true, preload: false });
    for (const body of [{ enabled: true, maxAge: -1 }, { enabled: true, maxAge: 63_072_001 }, { enabled: 'yes' }]) {
      expect((await call(t, 'PUT', url('setting/hsts'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    const off = await call(t, 'PUT', url('setting/hsts'), { token: f.tokens.userA, body: { enabled: false } });
    expect(off.body.data).toMatchObject({ hsts: { enabled: false, maxAge: 31_536_000 }, warning: null });
  });

  it('sets the client body size: MB, 0 turns the check off, null takes the zone setting', async () => {
    expect((await call(t, 'PUT', url('setting/clientMaxBodySize'), { token: f.tokens.userA, body: { clientMaxBodySize: 0 } })).body.data.clientMaxBodySize).toBe(0);
    expect((await siteState()).options.clientMaxBodySize).toBe(0);
    for (const v of [-1, 102_401, 1.5, '5']) {
      expect((await call(t, 'PUT', url('setting/clientMaxBodySize'), { token: f.tokens.userA, body: { clientMaxBodySize: v } })).body.code).toBe(101003);
    }
    expect((await settings()).clientMaxBodySize).toBe(0);
    await call(t, 'PUT', url('setting/clientMaxBodySize'), { token: f.tokens.userA, body: { clientMaxBodySize: 2 } });
    expect((await siteState()).options.clientMaxBodySize).toBe(2);
  });

  it('turns gzip and WebP variants on, and keys the cache on the path only when asked', async () => {
    const gz = await call(t, 'PUT', url('setting/gzip'), { token: f.tokens.userA, body: { enabled: true, webp: true } });
    expect(gz.body.data).toMatchObject({ gzip: true, webp: true });
    expect((await call(t, 'PUT', url('setting/gzip'), { token: f.tokens.userA, body: { enabled: false } })).body.data).toMatchObject({ gzip: false, webp: true });
    expect((await call(t, 'PUT', url('setting/gzip'), { token: f.tokens.userA, body: { enabled: true, webp: 1 } })).body.code).toBe(101003);
    const cache = await call(t, 'PUT', url('cacheRule/settings'), { token: f.tokens.userA, body: { ignoreQuery: true } });
    expect(cache.body.data.cache).toMatchObject({ ignoreQuery: true, directory: null });
    expect((await siteState()).options).toMatchObject({ webp: true, cache: { ignoreQuery: true } });
    expect((await call(t, 'PUT', url('cacheRule/settings'), { token: f.tokens.userA, body: { ignoreQuery: 'no' } })).body.code).toBe(101003);
  });

  it("chooses which of the zone's ports the site listens on, keeping one of each", async () => {
    expect((await call(t, 'GET', url('zonePorts'), { token: f.tokens.userA })).body.data).toEqual({
      httpPorts: [{ port: 80, enabled: true }, { port: 8080, enabled: true }],
      httpsPorts: [{ port: 443, enabled: true }, { port: 8443, enabled: true }],
    });
    const off = await call(t, 'DELETE', url('setting/ports'), { token: f.tokens.userA, body: { type: 'http', ports: [8080] } });
    expect(off.body.data.httpPorts).toEqual([{ port: 80, enabled: true }, { port: 8080, enabled: false }]);
    expect((await siteState()).options.httpPorts).toEqual([80]);
    expect((await call(t, 'DELETE', url('setting/ports'), { token: f.tokens.userA, body: { type: 'http', ports: [80] } })).body.code).toBe(101003);
    expect((await call(t, 'POST', url('setting/ports'), { token: f.tokens.userA, body: { type: 'https', ports: [9443] } })).body.code).toBe(101003);
    expect((await call(t, 'POST', url('setting/ports'), { token: f.tokens.userA, body: { type: 'ftp', ports: [21] } })).body.code).toBe(101003);
    expect((await siteState()).options.httpPorts).toEqual([80]);
    const on = await call(t, 'POST', url('setting/ports'), { token: f.tokens.userA, body: { type: 'http', ports: [8080] } });
    expect(on.body.data.httpPorts.every((p: { enabled: boolean }) => p.enabled)).toBe(true);
    expect((await settings()).httpPorts).toEqual([80, 8080]);
  });

  it('answers which setting groups the site has', async () => {
    expect((await call(t, 'GET', url('setting/exists'), { token: f.tokens.userA })).body.data).toEqual({
      cacheRules: false, rates: false, errorPages: false, dnsRecords: false, hsts: false, gzip: false,
    });
    await call(t, 'POST', url('rate'), { token: f.tokens.userA, body: { url: 'https://shop.example.com/', rate: 10 } });
    expect((await call(t, 'GET', url('setting/exists'), { token: f.tokens.userA })).body.data.rates).toBe(true);
  });

  it("refuses every call on another user's site, exactly as a missing one, and changes nothing", async () => {
    const before = await settings();
    const missing = await call(t, 'GET', 'user/site/999999/settings', { token: f.tokens.userB });
    for (const [method, path, body] of [
      ['GET', 'setting/exists', undefined],
      ['POST', 'rate', { url: 'https://shop.example.com/x/', rate: 1 }],
      ['PUT', 'rate', { id: before.rates[0].id, url: 'https://shop.example.com/x/', rate: 1 }],
      ['DELETE', 'rates', { ids: [before.rates[0].id] }],
      ['PUT', 'setting/hsts', { enabled: true }],
      ['PUT', 'setting/clientMaxBodySize', { clientMaxBodySize: 1 }],
      ['PUT', 'setting/gzip', { enabled: false, webp: false }],
      ['PUT', 'cacheRule/settings', { ignoreQuery: false }],
      ['DELETE', 'cacheRule/caches', { ids: [1] }],
      ['GET', 'zonePorts', undefined],
      ['POST', 'setting/ports', { type: 'http', ports: [80] }],
      ['DELETE', 'setting/ports', { type: 'http', ports: [8080] }],
    ] as const) {
      expect((await call(t, method, url(path), { token: f.tokens.userB, body })).body, `${method} ${path}`).toEqual(missing.body);
    }
    expect(await settings()).toEqual(before);
  });
});
