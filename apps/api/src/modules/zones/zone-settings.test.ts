import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode } from '../../../test/agent-logs';
import { migration as zoneResource } from '../../db/migrations/20261122-0100-zone-resource';
import { call, makeTenants, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';

lane('zone settings', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let zoneId: number;
  let credential: string;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    zoneId = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'settings' } })).body.data.id;
    const node = await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: zoneId, name: 'edge-1', ip: '192.0.2.10' } });
    credential = await enrolNode(t, f.tokens.clientA, node.body.data.id);
  });
  afterAll(() => t.close());

  const put = (name: string, body: unknown, token = f.tokens.clientA) => call(t, 'PUT', `client/zone/${zoneId}/${name}`, { token, body });
  const settings = async () => (await call(t, 'GET', `client/zone/${zoneId}/settings`, { token: f.tokens.clientA })).body.data;
  const agent = async (path: string, init: { method?: string; payload?: object } = {}) =>
    (await t.app.inject({ method: init.method ?? 'GET', url: `/agent/v1/${path}`, headers: { authorization: `Node ${credential}` }, payload: init.payload })).json();
  const nodeState = () => agent('state');

  const valid: Record<string, unknown> = {
    firewall: { enabled: false },
    ipset: { sets: [{ name: 'bad', ips: ['203.0.113.7', '2001:db8::/64', '203.0.113.7'] }] },
    http2: { enabled: false },
    forceSSLRedirectCode: { code: 308 },
    anticc: { enabled: true, rules: [{ urlRegex: '^/login', seconds: 10, times: 20, type: 3 }] },
    resource: { cacheSize: 2048, cacheTime: 90 },
    invalidDomainLimitCount: { count: 30 },
    tlsLimitCount: { count: 100 },
    'nginx/stream': { proxyConnectTimeout: 5, proxyTimeout: 300 },
    'nginx/custom': { connectTimeout: 4, sendTimeout: 30, readTimeout: 90, keepaliveTimeout: 20, proxyBuffering: false },
  };
  const invalid: Record<string, unknown[]> = {
    firewall: [{}, { enabled: 'no' }],
    ipset: [
      { sets: [{ name: 'x', ips: ['300.1.1.1'] }] },
      { sets: [{ name: '', ips: [] }] },
      { sets: [{ name: 'a', ips: [] }, { name: 'a', ips: [] }] },
      { sets: [{ name: 'big', ips: Array.from({ length: 5001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) }] },
    ],
    http2: [{ enabled: 1 }],
    forceSSLRedirectCode: [{ code: 303 }, { code: '301' }],
    anticc: [{ enabled: true, rules: [{ urlRegex: '(a+)+$', seconds: 10, times: 20, type: 3 }] }, { enabled: true, rules: [{ urlRegex: '/', seconds: 0, times: 1, type: 1 }] }],
    resource: [{ cacheSize: 1, cacheTime: 60 }, { cacheSize: 1024, cacheTime: 0 }],
    invalidDomainLimitCount: [{ count: -1 }, { count: 1.5 }],
    tlsLimitCount: [{ count: -1 }],
    'nginx/stream': [{ proxyConnectTimeout: 0, proxyTimeout: 10 }],
    'nginx/custom': [{ connectTimeout: 4, sendTimeout: 30, readTimeout: 90, keepaliveTimeout: 20 }],
    preheatCaches: [{ urls: [] }, { urls: ['ftp://x/y'] }],
  };

  it('answers defaults for every setting of a new zone', async () => {
    expect(await settings()).toMatchObject({
      firewall: { enabled: true },
      ipset: { sets: [] },
      http2: { enabled: true },
      http3: { enabled: false },
      forceSSLRedirectCode: { code: 301 },
      anticc: { enabled: false, rules: [] },
      resource: { cacheSize: 10_240, cacheTime: 10_080 },
      invalidDomainLimitCount: { count: 0 },
      tlsLimitCount: { count: 0 },
      nginxStream: { proxyConnectTimeout: 10, proxyTimeout: 600 },
      nginxCustom: { connectTimeout: 60, sendTimeout: 60, readTimeout: 60, keepaliveTimeout: 60, proxyBuffering: true },
      preheatCaches: { urls: [], createdAt: null },
    });
  });

  it('refuses bad input with 101003 and changes nothing', async () => {
    const before = await settings();
    for (const [name, bodies] of Object.entries(invalid)) {
      for (const body of bodies) {
        const r = await put(name, body);
        expect([r.status, r.body.code], `${name} ${JSON.stringify(body).slice(0, 80)}`).toEqual([400, 101003]);
      }
    }
    const http3 = await put('http3', { enabled: true });
    expect(http3.body.code).toBe(101003);
    expect(http3.body.extra).toContain('http_v3_module');
    expect(await settings()).toEqual(before);
  });

  it('stores each setting and hands it to the zone nodes', async () => {
    const revision = (await nodeState()).revision;
    for (const [name, body] of Object.entries(valid)) expect((await put(name, body)).status, name).toBe(200);
    expect((await put('http3', { enabled: false })).status).toBe(200);
    const s = await settings();
    expect(s.ipset.sets[0].ips).toEqual(['203.0.113.7', '2001:db8::/64']);
    expect(s).toMatchObject({ firewall: { enabled: false }, http2: { enabled: false }, forceSSLRedirectCode: { code: 308 }, resource: { cacheSize: 2048, cacheTime: 90 } });
    const state = await nodeState();
    expect(state.revision).toBeGreaterThan(revision);
    expect(state.structure.zone).toMatchObject({
      http2: false,
      forceSSLRedirectCode: 308,
      nginx: { cacheSize: 2048, cacheTime: 90, streamConnectTimeout: 5, streamTimeout: 300 },
      proxy: { connectTimeout: 4, sendTimeout: 30, readTimeout: 90, keepaliveTimeout: 20, buffering: false },
    });
    expect(state.data.zone).toEqual({
      firewall: false,
      ipset: ['203.0.113.7', '2001:db8::/64'],
      anticc: [{ id: 1, urlRegex: '^/login', seconds: 10, times: 20, type: 3 }],
      invalidDomainLimit: 30,
      tlsLimit: 100,
      restricted: [],
      ray: { parts: ['node'], node: expect.any(Number) },
      noDomainPage: null,
    });
  });

  it("sizes a node's cache by its own capacity when it has one, else by the zone's resource", async () => {
    const nodeId = (await call(t, 'GET', `client/nodes?zoneID=${zoneId}`, { token: f.tokens.clientA })).body.data[0].id;
    const before = (await nodeState()).revision;
    await call(t, 'PUT', 'client/node', { token: f.tokens.clientA, body: { id: nodeId, cacheCapacity: 512 } });
    const state = await nodeState();
    expect([state.structure.zone.nginx.cacheSize, state.revision > before]).toEqual([512, true]);
    await call(t, 'PUT', 'client/node', { token: f.tokens.clientA, body: { id: nodeId, cacheCapacity: 0 } });
    expect((await nodeState()).structure.zone.nginx.cacheSize).toBe((await settings()).resource.cacheSize);
  });

  it('flushes the IP sets: the names stay, the addresses go', async () => {
    await put('ipset', { sets: [{ name: 'a', ips: ['198.51.100.1'] }, { name: 'b', ips: ['198.51.100.0/24'] }] });
    const r = await call(t, 'DELETE', `client/zone/${zoneId}/ipset/flush`, { token: f.tokens.clientA });
    expect(r.body.data.ipset).toEqual({ sets: [{ name: 'a', ips: [] }, { name: 'b', ips: [] }] });
    expect((await nodeState()).data.zone.ipset).toEqual([]);
  });

  it('queues a cache warm-up on every node of the zone and shows each result', async () => {
    const r = await put('preheatCaches', { urls: ['https://shop.example.com/', 'https://shop.example.com/app.js'] });
    expect(r.body.data.preheatCaches.urls).toHaveLength(2);
    const { commands } = await agent('commands');
    const warm = commands.find((c: { kind: string }) => c.kind === 'warmCache');
    expect(warm.args).toEqual({ urls: ['https://shop.example.com/', 'https://shop.example.com/app.js'] });
    await agent(`commands/${warm.id}/result`, { method: 'POST', payload: { ok: true, message: '2 URLs warmed' } });
    const result = await call(t, 'GET', `client/zone/${zoneId}/preheatCaches`, { token: f.tokens.clientA });
    expect(result.body.data).toMatchObject({ urls: ['https://shop.example.com/', 'https://shop.example.com/app.js'], nodes: [{ nodeName: 'edge-1', status: 'done', message: '2 URLs warmed' }] });
  });

  it('moves a stored cache size from the nginx http form to the cache resource, and back down', async () => {
    const z = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'legacy' } })).body.data.id;
    const legacy = { ports: { httpPorts: [80], httpsPorts: [443] }, nginxHttp: { clientMaxBodySize: 10, keepaliveTimeout: 30, cacheSize: 4096 } };
    await t.deps.db.updateTable('zones').set({ settings: JSON.stringify(legacy) }).where('id', '=', z).execute();
    await zoneResource.up(t.deps.db as never, t.deps.dialect);
    const moved = (await call(t, 'GET', `client/zone/${z}/settings`, { token: f.tokens.clientA })).body.data;
    expect(moved.nginxHttp).toEqual({ clientMaxBodySize: 10, keepaliveTimeout: 30 });
    expect(moved.resource).toEqual({ cacheSize: 4096, cacheTime: 10_080 });
    await zoneResource.down(t.deps.db as never, t.deps.dialect);
    const row = await t.deps.db.selectFrom('zones').select('settings').where('id', '=', z).executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings).nginxHttp).toEqual(legacy.nginxHttp);
    await zoneResource.up(t.deps.db as never, t.deps.dialect);
  });

  it("refuses another client's zone like a missing one, and a sub-client's change", async () => {
    const missing = await call(t, 'GET', 'client/zone/999999/settings', { token: f.tokens.clientB });
    const before = await settings();
    for (const name of [...Object.keys(valid), 'http3', 'preheatCaches']) {
      const r = await put(name, name === 'preheatCaches' ? { urls: ['https://x.example.com/'] } : valid[name] ?? { enabled: false }, f.tokens.clientB);
      expect(r.body, name).toEqual(missing.body);
    }
    expect((await call(t, 'DELETE', `client/zone/${zoneId}/ipset/flush`, { token: f.tokens.clientB })).body).toEqual(missing.body);
    expect((await call(t, 'GET', `client/zone/${zoneId}/preheatCaches`, { token: f.tokens.clientB })).body).toEqual(missing.body);
    expect(await settings()).toEqual(before);

    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'zone-settings', permissions: ['zones.view', 'zones.edit'] } });
    const sub = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { auth: 'client', email: 'zs-sub@example.com', name: 'sub', roleID: role.body.data.id, password: PASSWORD } });
    await call(t, 'PUT', `client/${sub.body.data.id}/zones`, { token: f.tokens.clientA, body: { zoneIDs: [zoneId] } });
    const subToken = (await signIn(t, 'client', 'zs-sub@example.com')).accessToken;
    expect((await call(t, 'GET', `client/zone/${zoneId}/settings`, { token: subToken })).status).toBe(200);
    for (const name of ['firewall', 'tlsLimitCount']) expect((await put(name, valid[name], subToken)).body.code).toBe(101018);
    expect((await call(t, 'DELETE', `client/zone/${zoneId}/ipset/flush`, { token: subToken })).body.code).toBe(101018);
    expect((await put('preheatCaches', { urls: ['https://x.example.com/'] }, subToken)).body.code).toBe(101018);
    expect(await settings()).toEqual(before);
  });
});
