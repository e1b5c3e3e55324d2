import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { buildNodeState } from '../../agent-gateway/state';

const origin = { host: '198.51.100.7', port: 8080, weight: 5 };

lane('domains and origins', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  const add = (token: string, site: number, domains: string | string[], upstreams: unknown[] = [origin]) =>
    call(t, 'POST', `user/site/${site}/domains`, { token, body: { domains, upstreams } });

  it('adds domains one per line: lower-cased, punycode, wildcards, with their origins', async () => {
    const r = await add(f.tokens.userA, f.a.site, 'Shop.Example.COM\n*.cdn.example.com\nbücher.example.de\n_dmarc.example.org');
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { name: string }) => d.name)).toEqual(['shop.example.com', '*.cdn.example.com', 'xn--bcher-kva.example.de', '_dmarc.example.org']);
    expect(r.body.data[0]).toMatchObject({ status: 1, protocol: 'http', upstreams: [{ host: '198.51.100.7', port: 8080, weight: 5, backup: false, enabled: true }] });
    const list = await call(t, 'GET', `user/site/${f.a.site}/domains?keywords=SHOP`, { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 1, data: [{ name: 'shop.example.com' }] });
  });

  it('refuses the whole batch with 101009, naming each bad domain, and adds nothing', async () => {
    const spaced = await add(f.tokens.userA, f.a.site, 'ok.example.net\nsp ace.com');
    expect(spaced.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'domains.1' }] } });
    const r = await add(f.tokens.userA, f.a.site, ['ok.example.net', 'bad_label.example', 'no-tld', 'a_b.com', 'shop.example.com', 'ok.example.net']);
    expect(r.body.code).toBe(101009);
    const targets = r.body.errors.map((e: { code: number; targets: string[] }) => [e.code, e.targets[0]]);
    expect(targets).toEqual(
      expect.arrayContaining([
        [101003, 'bad_label.example'],
        [101003, 'no-tld'],
        [101003, 'a_b.com'],
        [101025, 'ok.example.net'],
        [401001, 'shop.example.com'],
      ]),
    );
    expect((await call(t, 'GET', `user/site/${f.a.site}/domains?keywords=ok.example`, { token: f.tokens.userA })).body.total).toBe(0);
  });

  it('needs at least one origin, with a weight of 1 to 100', async () => {
    expect((await add(f.tokens.userA, f.a.site, 'x.example.com', [])).body.code).toBe(101003);
    expect((await add(f.tokens.userA, f.a.site, 'x.example.com', [{ host: '198.51.100.1', weight: 101 }])).body.code).toBe(101003);
    expect((await add(f.tokens.userA, f.a.site, 'x.example.com', [{ host: 'not a host' }])).body.code).toBe(101003);
    const defaults = await add(f.tokens.userA, f.a.site, 'x.example.com', [{ host: 'origin.example.com' }]);
    expect(defaults.body.data[0].upstreams[0]).toMatchObject({ port: 80, weight: 1 });
  });

  it('an enabled domain belongs to one site across all tenants (401001)', async () => {
    const taken = await add(f.tokens.userB, f.b.site, 'shop.example.com');
    expect(taken.body.errors[0]).toMatchObject({ code: 401001, targets: ['shop.example.com'] });
    const [own] = (await add(f.tokens.userA, f.a.site, 'shop.twin.test')).body.data;
    await call(t, 'PUT', `user/site/${f.a.site}/domain`, { token: f.tokens.userA, body: { id: own.id, status: 0 } });
    const b = await add(f.tokens.userB, f.b.site, 'shop.twin.test');
    expect(b.status).toBe(200);
    const again = await call(t, 'PUT', `user/site/${f.a.site}/domain`, { token: f.tokens.userA, body: { id: own.id, status: 1 } });
    expect(again.body.code).toBe(401001);
  });

  it('keeps at least one enabled origin per domain (401008)', async () => {
    const [d] = (await add(f.tokens.userA, f.a.site, 'origins.example.com')).body.data;
    const only = d.upstreams[0].id;
    const off = await call(t, 'PUT', `user/site/${f.a.site}/domain/${d.id}/upstream`, { token: f.tokens.userA, body: { id: only, enabled: false } });
    expect(off.body.code).toBe(401008);
    const gone = await call(t, 'DELETE', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userA, body: { ids: [only] } });
    expect(gone.body.code).toBe(401008);
    const list = await call(t, 'GET', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userA });
    expect(list.body.data).toEqual([expect.objectContaining({ id: only, enabled: true })]);
    const added = await call(t, 'POST', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userA, body: { upstreams: [{ host: '198.51.100.9', backup: true }] } });
    expect(added.body.data[0]).toMatchObject({ backup: true });
    expect((await call(t, 'DELETE', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userA, body: { ids: [added.body.data[0].id] } })).status).toBe(200);
  });

  it('changes reach the desired state of the zone’s nodes, with a new revision', async () => {
    const before = await buildNodeState(t.deps, f.a.node);
    const [d] = (await add(f.tokens.userA, f.a.site, 'live.example.com')).body.data;
    await call(t, 'PUT', `user/site/${f.a.site}/domain`, { token: f.tokens.userA, body: { id: d.id, forceSSL: true } });
    const after = await buildNodeState(t.deps, f.a.node);
    expect(after.revision).toBeGreaterThan(before.revision);
    const site = after.structure.sites.find((s) => s.id === f.a.site)!;
    expect(site.domains.find((x) => x.name === 'live.example.com')).toMatchObject({ forceSSL: true, origins: [{ host: '198.51.100.7', port: 8080, weight: 5 }] });
    expect(site.domains.map((x) => x.name)).not.toContain('shop.twin.test');
    const other = await buildNodeState(t.deps, f.b.node);
    expect(other.structure.sites.map((s) => s.id)).toEqual([f.b.site]);
    await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 0 } });
    expect((await buildNodeState(t.deps, f.a.node)).structure.sites).toEqual([]);
    await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 1 } });
  });

  it("refuses every domain call on another user's site", async () => {
    const [d] = (await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).body.data;
    const missing = await call(t, 'GET', 'user/site/999999/domains', { token: f.tokens.userB });
    for (const r of [
      await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userB }),
      await add(f.tokens.userB, f.a.site, 'steal.example.com'),
      await call(t, 'PUT', `user/site/${f.a.site}/domain`, { token: f.tokens.userB, body: { id: d.id, status: 0 } }),
      await call(t, 'DELETE', `user/site/${f.a.site}/domains`, { token: f.tokens.userB, body: { ids: [d.id] } }),
      await call(t, 'GET', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userB }),
      await call(t, 'POST', `user/site/${f.a.site}/domain/${d.id}/upstreams`, { token: f.tokens.userB, body: { upstreams: [origin] } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    const viaOwnSite = await call(t, 'DELETE', `user/site/${f.b.site}/domains`, { token: f.tokens.userB, body: { ids: [d.id] } });
    expect(viaOwnSite.status).toBe(404);
    expect((await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).body.data.map((x: { id: number }) => x.id)).toContain(d.id);
  });
});
