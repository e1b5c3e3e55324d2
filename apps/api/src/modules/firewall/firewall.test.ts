import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('IP blacklist and whitelist', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/firewall/setting/${path}`;

  it('takes addresses, CIDR blocks and (on the blacklist) ranges, one per line, into the node state', async () => {
    const r = await call(t, 'POST', url('blacklists'), { token: f.tokens.userA, body: { ips: '203.0.113.7\n198.51.100.0/24\n192.0.2.10-192.0.2.20\n2001:db8::1', memo: 'abuse' } });
    expect(r.body.data.map((x: { ip: string }) => x.ip)).toEqual(['203.0.113.7', '198.51.100.0/24', '192.0.2.10-192.0.2.20', '2001:db8::1']);
    const w = await call(t, 'POST', url('whitelists'), { token: f.tokens.userA, body: { ips: ['10.0.0.0/8'] } });
    expect(w.status).toBe(200);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.data.sites).toEqual([{ siteId: f.a.site, blacklist: ['203.0.113.7', '198.51.100.0/24', '192.0.2.10-192.0.2.20', '2001:db8::1'], whitelist: ['10.0.0.0/8'] }]);
    const list = await call(t, 'GET', url('blacklists?ip=203.0'), { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 1, data: [{ ip: '203.0.113.7', memo: 'abuse', enabled: true }] });
  });

  it('refuses bad lines, repeats and whitelist ranges in one 101009, adding nothing', async () => {
    const r = await call(t, 'POST', url('blacklists'), { token: f.tokens.userA, body: { ips: '203.0.113.8\n999.1.1.1\n203.0.113.8\n203.0.113.7\n10.0.0.5-10.0.0.1' } });
    expect(r.body.code).toBe(101009);
    expect(r.body.errors.map((e: { code: number; targets: string[] }) => [e.code, e.targets[0]])).toEqual(
      expect.arrayContaining([[101003, '999.1.1.1'], [101025, '203.0.113.8'], [101025, '203.0.113.7'], [101003, '10.0.0.5-10.0.0.1']]),
    );
    const range = await call(t, 'POST', url('whitelists'), { token: f.tokens.userA, body: { ips: '192.0.2.1-192.0.2.9' } });
    expect(range.body.errors[0]).toMatchObject({ code: 101003, targets: ['192.0.2.1-192.0.2.9'] });
    expect((await call(t, 'POST', url('blacklists'), { token: f.tokens.userA, body: { ips: '203.0.113.9 203.0.113.10' } })).body.code).toBe(101003);
    expect((await call(t, 'POST', url('blacklists'), { token: f.tokens.userA, body: { ips: '' } })).body.code).toBe(101003);
    expect((await call(t, 'GET', url('blacklists'), { token: f.tokens.userA })).body.total).toBe(4);
  });

  it('holds at most 5000 entries per list', async () => {
    const many = Array.from({ length: 4997 }, (_, i) => `10.${Math.floor(i / 250)}.${i % 250}.1`);
    const r = await call(t, 'POST', url('blacklists'), { token: f.tokens.userA, body: { ips: many } });
    expect(r.body.code).toBe(101029);
    const full = Array.from({ length: 5000 }, (_, i) => `10.${Math.floor(i / 250)}.${i % 250}.2`);
    const made = await call(t, 'POST', url('blacklists', f.b.site), { token: f.tokens.userB, body: { ips: full.join('\n') } });
    expect(made.body.data).toHaveLength(5000);
    expect((await call(t, 'GET', url('blacklists', f.b.site), { token: f.tokens.userB })).body.total).toBe(5000);
  });

  it('closes entries in batch, and removes only closed ones', async () => {
    const [entry] = (await call(t, 'GET', url('blacklists?ip=2001'), { token: f.tokens.userA })).body.data;
    const refused = await call(t, 'DELETE', url('blacklists'), { token: f.tokens.userA, body: { ids: [entry.id] } });
    expect(refused.body).toMatchObject({ code: 101003, extra: { ids: [entry.id] } });
    await call(t, 'PUT', url('blacklists/enable'), { token: f.tokens.userA, body: { ids: [entry.id], enabled: false } });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites[0].blacklist).not.toContain('2001:db8::1');
    expect((await call(t, 'DELETE', url('blacklists'), { token: f.tokens.userA, body: { ids: [entry.id] } })).status).toBe(200);
  });

  it('keeps the url, method and port conditions of entries and hands them to the edge', async () => {
    const r = await call(t, 'POST', url('whitelists'), { token: f.tokens.userA, body: { ips: '192.0.2.200', url: '/admin', methodValues: ['POST', 'PUT'], port: 8080 } });
    expect(r.body.data[0]).toMatchObject({ ip: '192.0.2.200', url: '/admin', methodValues: ['POST', 'PUT'], port: 8080 });
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.data.sites[0].whitelist).toContainEqual({ ip: '192.0.2.200', url: '/admin', methods: ['POST', 'PUT'], port: 8080 });
    for (const body of [
      { ips: '192.0.2.201', url: 'admin' },
      { ips: '192.0.2.201', methodValues: ['FETCH'] },
      { ips: '192.0.2.201', methodValues: ['GET', 'GET'] },
      { ips: '192.0.2.201', port: 70000 },
    ]) {
      expect((await call(t, 'POST', url('whitelists'), { token: f.tokens.userA, body })).body.code).toBe(101003);
    }
    const changed = await call(t, 'PUT', url('whitelist'), { token: f.tokens.userA, body: { id: r.body.data[0].id, ip: '192.0.2.200', url: '', methodValues: [], port: 0 } });
    expect(changed.body.data).toMatchObject({ url: '', methodValues: [], port: 0 });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites[0].whitelist).toContain('192.0.2.200');
    expect((await call(t, 'GET', url('whitelists?ip=192.0.2.201'), { token: f.tokens.userA })).body.total).toBe(0);
  });

  it("refuses every list call on another user's site", async () => {
    const [entry] = (await call(t, 'GET', url('blacklists'), { token: f.tokens.userA })).body.data;
    const missing = await call(t, 'GET', 'user/site/999999/firewall/setting/blacklists', { token: f.tokens.userB });
    for (const r of [
      await call(t, 'GET', url('blacklists'), { token: f.tokens.userB }),
      await call(t, 'POST', url('blacklists'), { token: f.tokens.userB, body: { ips: '203.0.113.50' } }),
      await call(t, 'PUT', url('blacklist'), { token: f.tokens.userB, body: { id: entry.id, ip: '203.0.113.51' } }),
      await call(t, 'PUT', url('blacklists/enable'), { token: f.tokens.userB, body: { ids: [entry.id], enabled: false } }),
      await call(t, 'DELETE', url('blacklists'), { token: f.tokens.userB, body: { ids: [entry.id] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'PUT', url('blacklists/enable', f.b.site), { token: f.tokens.userB, body: { ids: [entry.id], enabled: false } })).status).toBe(404);
  });
});
