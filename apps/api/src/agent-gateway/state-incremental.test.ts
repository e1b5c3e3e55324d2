import type { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
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
    expect(siteOf(await next(), other)).toBeUndefined();
    await ok(asClient('PUT', 'client/site/status', { ids: [other], status: 1 }));
    expect(siteOf(await next(), other)?.domains).toHaveLength(1);
    const third = (await asClient('POST', 'client/site', { name: 'third', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    expect(siteOf(await next(), third)?.domains).toEqual([]);
    await ok(asA('POST', `user/site/${third}/domains`, { domains: 'third.step.test', upstreams: [{ host: '192.0.2.14' }] }));
    expect(siteOf(await next({ kept: other }), third)?.domains).toHaveLength(1);
    await ok(asClient('PUT', 'client/site/status', { ids: [third], status: 0 }));
    expect(siteOf(await next(), third)).toBeUndefined();
    await ok(asClient('DELETE', 'client/site', { ids: [third] }));
    expect((await next()).structure.sites.map((s) => s.id)).toEqual([f.a.site, other]);
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
