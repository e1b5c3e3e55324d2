import type { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from '../../../agent/src/test/certificates';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { evaluateTraffic } from '../modules/traffic/state';
import { buildNodeState } from './state';

lane('a new revision built from the one before: only the sites changed since are read again', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let other: number;
  let held: Promise<edge.DesiredState>;

  const asA = (method: string, url: string, body?: unknown) => call(t, method, url, { token: f.tokens.userA, body });
  const asClient = (method: string, url: string, body?: unknown) => call(t, method, url, { token: f.tokens.clientA, body });
  const ok = async (answer: ReturnType<typeof asA>) => expect((await answer).status).toBe(200);
  const siteOf = (state: edge.DesiredState, id: number) => state.structure.sites.find((s) => s.id === id);
  const dataOf = (state: edge.DesiredState, id: number) => state.data.sites.find((s) => s.siteId === id);
  const modulesOf = (state: edge.DesiredState, domainId: number) => state.data.domainModules.find((m) => m.domainId === domainId);
  const domainOf = async (siteId: number) => siteOf(await held, siteId)!.domains[0].id;

  /** The build that follows the held one equals a build from nothing; `kept`: a site taken as it was. */
  const next = async ({ kept }: { kept?: number } = {}) => {
    const before = await held;
    const made = buildNodeState(t.deps, f.a.node, held);
    const state = await made;
    expect(state).toEqual(await buildNodeState(t.deps, f.a.node));
    expect(state.revision).toBeGreaterThan(before.revision);
    if (kept !== undefined) expect(siteOf(state, kept)).toBe(siteOf(before, kept));
    held = made;
    return state;
  };

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    other = (await asClient('POST', 'client/site', { name: 'other', productID: f.a.product, userID: f.userA.id })).body.data.id;
    await ok(asA('POST', `user/site/${f.a.site}/domains`, { domains: ['one.step.test', 'two.step.test'], upstreams: [{ host: '192.0.2.10' }] }));
    await ok(asA('POST', `user/site/${other}/domains`, { domains: 'other.step.test', upstreams: [{ host: '192.0.2.11' }] }));
    held = buildNodeState(t.deps, f.a.node);
  });
  afterAll(() => t.close());

  it('takes a domain added, changed and removed', async () => {
    await ok(asA('POST', `user/site/${f.a.site}/domains`, { domains: 'three.step.test', upstreams: [{ host: '192.0.2.12' }] }));
    const added = await next({ kept: other });
    expect(siteOf(added, f.a.site)?.domains.map((d) => d.name)).toContain('three.step.test');
    const three = siteOf(added, f.a.site)!.domains.find((d) => d.name === 'three.step.test')!;
    await ok(asA('PUT', `user/site/${f.a.site}/domain`, { id: three.id, forceSSL: true }));
    await next({ kept: other });
    await ok(asA('DELETE', `user/site/${f.a.site}/domains`, { ids: [three.id] }));
    expect(siteOf(await next({ kept: other }), f.a.site)?.domains.map((d) => d.name)).not.toContain('three.step.test');
  });

  it('takes an origin added and changed', async () => {
    const [domain] = siteOf(await held, other)!.domains;
    const added = await asA('POST', `user/site/${other}/domain/${domain.id}/upstreams`, { upstreams: [{ host: '192.0.2.13', backup: true }] });
    expect(added.status).toBe(200);
    expect(siteOf(await next({ kept: f.a.site }), other)?.domains[0].origins.map((o) => o.host)).toEqual(['192.0.2.11', '192.0.2.13']);
    await ok(asA('PUT', `user/site/${other}/domain/${domain.id}/upstream`, { id: added.body.data[0].id, weight: 7 }));
    expect(siteOf(await next({ kept: f.a.site }), other)?.domains[0].origins[1].weight).toBe(7);
  });

  it("takes a site's settings and firewall rules", async () => {
    await ok(asA('PUT', `user/site/${f.a.site}/setting/gzip`, { enabled: true }));
    expect(siteOf(await next({ kept: other }), f.a.site)?.gzip).toBe(true);
    await ok(asA('POST', `user/site/${other}/firewall/setting/userAgents`, { userAgentRegex: 'sqlmap', blockType: 'drop' }));
    const state = await next({ kept: f.a.site });
    expect(state.data.sites.find((s) => s.siteId === other)?.userAgents).toHaveLength(1);
  });

  it('takes a site disabled, enabled again, a site added and one deleted', async () => {
    await ok(asClient('PUT', 'client/site/status', { ids: [other], status: 0 }));
    expect(siteOf(await next({ kept: f.a.site }), other)).toBeUndefined();
    await ok(asClient('PUT', 'client/site/status', { ids: [other], status: 1 }));
    expect(siteOf(await next({ kept: f.a.site }), other)?.domains).toHaveLength(1);
    const third = (await asClient('POST', 'client/site', { name: 'third', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    expect(siteOf(await next({ kept: other }), third)?.domains).toEqual([]);
    await ok(asA('POST', `user/site/${third}/domains`, { domains: 'third.step.test', upstreams: [{ host: '192.0.2.14' }] }));
    expect(siteOf(await next({ kept: other }), third)?.domains).toHaveLength(1);
    await ok(asClient('PUT', 'client/site/status', { ids: [third], status: 0 }));
    expect(siteOf(await next({ kept: other }), third)).toBeUndefined();
    await ok(asClient('DELETE', 'client/site', { ids: [third] }));
    expect((await next({ kept: other })).structure.sites.map((s) => s.id)).toEqual([f.a.site, other]);
  });

  it('takes a site paused and resumed with no build between, and a site expired and renewed', async () => {
    const before = await held;
    await ok(asClient('PUT', 'client/site/status', { ids: [other], status: 0 }));
    await ok(asClient('PUT', 'client/site/status', { ids: [other], status: 1 }));
    expect(siteOf(await next({ kept: f.a.site }), other)).toEqual(siteOf(before, other));
    await ok(asClient('PUT', 'client/site/expired', { ids: [other], expiredAt: '2020-01-01T00:00:00Z' }));
    expect(siteOf(await next({ kept: f.a.site }), other)).toBeUndefined();
    await ok(asClient('PUT', 'client/site/expired', { ids: [other], expiredAt: null }));
    expect(siteOf(await next({ kept: f.a.site }), other)?.domains).toHaveLength(1);
  });

  it("takes a site's limitations", async () => {
    await ok(asClient('PUT', 'client/site/limitations', { ids: [other], limitations: { bandwidth: 20, connections: 300 } }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.limits).toEqual({ bandwidth: 20, connections: 300 });
    await ok(asClient('PUT', 'client/site/limitations', { ids: [other], limitations: { bandwidth: null, connections: null } }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.limits).toBeUndefined();
  });

  it("takes a site moved to another product and back, and its product's terms taken again", async () => {
    const second = (await asClient('POST', 'client/product', { name: 'second', zoneID: f.a.zone, groupID: f.a.group, bandwidth: 30 })).body.data.id as number;
    await ok(asClient('PUT', 'client/site/product/change', { ids: [other], productID: second }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.limits).toEqual({ bandwidth: 30 });
    await ok(asClient('PUT', 'client/site/product/refresh', { ids: [other] }));
    await next({ kept: f.a.site });
    await ok(asClient('PUT', 'client/site/product/change', { ids: [other], productID: f.a.product }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.limits).toBeUndefined();
  });

  it("takes a site's traffic limit reached and lifted", async () => {
    const product = (await asClient('GET', 'client/products?page=1&pageSize=100')).body.data.find((p: { id: number }) => p.id === f.a.product);
    await ok(asClient('PUT', 'client/product', { id: f.a.product, monthlyTrafficGB: 1, exceedAction: 'limit' }));
    await next();
    const used = { siteId: other, bytesSent: 2 * 1024 ** 3, bytesReceived: 0, requests: 1, cacheHits: 0, cacheBytes: 0 };
    const totals = vi.spyOn(t.deps.analytics, 'totalsBySite').mockResolvedValue([used]);
    await evaluateTraffic(t.deps, { siteIds: [f.a.site, other] });
    totals.mockRestore();
    expect(dataOf(await next({ kept: f.a.site }), other)?.trafficLimited).toBe(true);
    await evaluateTraffic(t.deps, { siteIds: [f.a.site, other] });
    expect(dataOf(await next({ kept: f.a.site }), other)?.trafficLimited).toBeUndefined();
    await ok(asClient('PUT', 'client/product', { id: f.a.product, monthlyTrafficGB: product.monthlyTrafficGB, exceedAction: product.exceedAction }));
    await next();
  });

  it('takes a site module edited and assigned to a domain, and an access rule', async () => {
    const site = (path: string, id = f.a.site) => `user/site/${id}/${path}`;
    const one = await domainOf(f.a.site);
    const module = (await asA('PUT', site('module/customHeader'), { name: 'step' })).body.data;
    await ok(asA('PUT', site(`customHeader/${module.id}/header`), { type: 'response', action: 'set', name: 'X-Step', value: '1' }));
    await next({ kept: other });
    await ok(asA('PUT', site('domains/module/customHeader'), { domainIDs: [one], moduleID: module.id }));
    expect(modulesOf(await next({ kept: other }), one)?.headers).toMatchObject([{ name: 'X-Step', value: '1' }]);
    const [header] = (await asA('GET', site(`customHeader/${module.id}/headers`))).body.data;
    await ok(asA('PUT', site(`customHeader/${module.id}/header`), { ...header, value: '2' }));
    expect(modulesOf(await next({ kept: other }), one)?.headers).toMatchObject([{ name: 'X-Step', value: '2' }]);
    await ok(asA('PUT', site('module/customHeader'), { id: module.id, name: 'renamed' }));
    await next({ kept: other });
    const mine = await domainOf(other);
    await ok(asA('POST', site(`domain/${mine}/antiHeaders`, other), { name: 'User-Agent', operator: 'contains', value: 'sqlmap' }));
    expect(modulesOf(await next({ kept: f.a.site }), mine)?.headerRules).toHaveLength(1);
  });

  it('takes basic auth', async () => {
    const auth = (path: string) => `user/site/${other}/auth/${path}`;
    const group = (await asA('POST', auth('group'), { name: 'staff' })).body.data;
    await ok(asA('POST', auth(`group/${group.id}/basicAuth`), { user: 'ops', password: 's3cret-pass' }));
    await next({ kept: f.a.site });
    await ok(asA('POST', auth('rule'), { match: 'prefix', pattern: '/admin', realm: 'Staff', groupIDs: [group.id] }));
    const state = await next({ kept: f.a.site });
    expect(modulesOf(state, await domainOf(other))?.basicAuth).toMatchObject([{ pattern: '/admin', users: [{ user: 'ops' }] }]);
  });

  it('takes anti-CC rules, IP lists, the advanced switch and lifted blocks', async () => {
    const firewall = (path: string, id = f.a.site) => `user/site/${id}/firewall/setting/${path}`;
    const rule = await asA('POST', firewall('anticc'), { urlRegex: '^/login', seconds: 10, times: 20, type: 2, priority: 5 });
    expect(rule.status).toBe(200);
    expect(dataOf(await next({ kept: other }), f.a.site)?.waf?.anticc).toMatchObject([{ urlRegex: '^/login' }]);
    await ok(asA('PUT', firewall('anticcs/enable'), { ids: [rule.body.data.id], enabled: false }));
    expect(dataOf(await next({ kept: other }), f.a.site)?.waf).toBeUndefined();
    await ok(asA('POST', firewall('blacklists', other), { ips: ['203.0.113.7'] }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.blacklist).toEqual(['203.0.113.7']);
    await ok(asA('PUT', firewall('advance', other), { enabled: true }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.advance).toBe(true);
    await ok(asA('DELETE', firewall('blockIPs'), { ips: ['203.0.113.5'] }));
    expect(dataOf(await next({ kept: other }), f.a.site)?.unblocks).toEqual([{ ip: '203.0.113.5', at: expect.any(Number) }]);
  });

  it('takes a WAF ACL rule and the module assigned to a domain', async () => {
    const acl = (path: string) => `user/site/${other}/${path}`;
    const [module] = (await asA('POST', acl('module/luaAcls'), { modules: [{ name: 'edge rules' }] })).body.data;
    const conditions = [{ field: 'userAgent', operator: 'contains', value: 'badbot' }];
    await ok(asA('POST', acl(`module/luaAcl/${module.id}/rules`), { name: 'bots', priority: 10, logic: 'or', conditions, action: 'deny' }));
    await next({ kept: f.a.site });
    await ok(asA('PUT', acl('domains/module/luaAcl'), { domainIDs: [await domainOf(other)], moduleID: module.id }));
    expect(dataOf(await next({ kept: f.a.site }), other)?.waf?.acl).toMatchObject([{ id: module.id, domains: ['other.step.test'], rules: [{ action: 'deny' }] }]);
  });

  it('takes a certificate bound to a domain and its chain replaced', async () => {
    const one = await domainOf(f.a.site);
    const first = await selfSignedCertificate({ host: 'one.step.test' });
    const cert = (await asA('POST', `user/site/${f.a.site}/certificate`, { name: 'one', certificate: first.chain, key: first.key })).body.data;
    await ok(asA('PATCH', `user/site/${f.a.site}/certificate/domains`, { id: cert.id, domainIDs: [one] }));
    const bound = await next({ kept: other });
    expect(siteOf(bound, f.a.site)?.domains.find((d) => d.id === one)?.certificateId).toBe(cert.id);
    expect(bound.data.certificates).toMatchObject([{ id: cert.id, key: first.key }]);
    const renewed = await selfSignedCertificate({ host: 'one.step.test' });
    await ok(asA('PUT', `user/site/${f.a.site}/certificate`, { id: cert.id, certificate: renewed.chain, key: renewed.key }));
    expect((await next({ kept: other })).data.certificates).toMatchObject([{ id: cert.id, key: renewed.key }]);
    // a certificate that serves domains of two sites (the API binds a site's own only): both sites take its change
    const mine = await domainOf(other);
    await t.deps.db.updateTable('domains').set({ certificate_id: cert.id }).where('id', '=', mine).execute();
    await ok(asA('PUT', `user/site/${f.a.site}/certificate`, { id: cert.id, certificate: first.chain, key: first.key }));
    expect(siteOf(await next(), other)?.domains[0].certificateId).toBe(cert.id);
    await ok(asA('PATCH', `user/site/${f.a.site}/certificate/domains`, { id: cert.id, domainIDs: [one] }));
    expect(siteOf(await next(), other)?.domains[0].certificateId).toBeNull();
  });

  it('takes a layer-4 site and its ports', async () => {
    const tcp = (await asClient('POST', 'client/site', { name: 'tcp', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    await next({ kept: other });
    await ok(asA('POST', `user/site/${tcp}/ports`, { ports: [{ port: 2222, upstreams: [{ host: '198.51.100.20', port: 22 }] }] }));
    expect(siteOf(await next({ kept: other }), tcp)?.l4Ports?.map((p) => p.port)).toEqual([2222]);
    const [port] = (await asA('GET', `user/site/${tcp}/ports`)).body.data;
    await ok(asA('PUT', `user/site/${tcp}/port`, { id: port.id, port: 2223 }));
    expect(siteOf(await next({ kept: other }), tcp)?.l4Ports?.map((p) => p.port)).toEqual([2223]);
    await ok(asClient('PUT', 'client/site/status', { ids: [tcp], status: 0 }));
    await ok(asClient('DELETE', 'client/site', { ids: [tcp] }));
    expect(siteOf(await next({ kept: other }), tcp)).toBeUndefined();
  });

  it("takes the build of another node of the zone, and gives the node its own parts", async () => {
    const node = (await asClient('POST', 'client/node', { zoneID: f.a.zone, name: 'edge-a2', ip: '192.0.2.2' })).body.data.id as number;
    await ok(asA('POST', `user/site/${f.a.site}/domains`, { domains: 'four.step.test', upstreams: [{ host: '192.0.2.15' }] }));
    const before = await held;
    const state = await buildNodeState(t.deps, node, held);
    expect(state).toEqual(await buildNodeState(t.deps, node));
    expect(state.data.zone.ray.node).toBe(node);
    expect(siteOf(state, other)).toBe(siteOf(before, other));
  });

  it('builds every site again after a change that may touch any', async () => {
    await ok(asClient('PUT', `client/zone/${f.a.zone}/ports`, { httpPorts: [80, 8080], httpsPorts: [443] }));
    const state = await next();
    expect(state.structure.zone.httpPorts).toEqual([80, 8080]);
  });
});
