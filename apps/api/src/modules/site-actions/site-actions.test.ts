import { afterAll, beforeAll, expect, it } from 'vitest';
import { now } from '../../db';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, makeAccount, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { expireDueSites } from './service';

lane('client site actions', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  const site = async (id = f.a.site) => (await call(t, 'GET', `user/site/${id}`, { token: f.tokens.userA })).body.data;
  const status = async (id: number, value: number) => (await client('PUT', 'client/site/status', { ids: [id], status: value })).body.code ?? 0;
  const served = async (nodeId: number) => (await buildNodeState(t.deps, nodeId)).structure.sites.map((s) => s.id);
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  it('status follows the allowed transitions; only a site that is not normal is removed', async () => {
    const extra = (await client('POST', 'client/site', { name: 'spare', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    // paused, normal and locked move freely among themselves; nobody sets expired by hand
    for (const [from, to] of [[1, 0], [0, 2], [2, 1], [1, 2], [2, 0], [0, 1], [1, 1]]) {
      await t.deps.db.updateTable('sites').set({ status: from }).where('id', '=', extra).execute();
      expect(await status(extra, to)).toBe(0);
      expect((await site(extra)).status).toBe(to);
    }
    for (const from of [0, 1, 2]) {
      await t.deps.db.updateTable('sites').set({ status: from }).where('id', '=', extra).execute();
      expect(await status(extra, 3)).toBe(205002);
    }
    // an expired site leaves that status only by being renewed
    await t.deps.db.updateTable('sites').set({ status: 3 }).where('id', '=', extra).execute();
    for (const to of [0, 1, 2]) expect(await status(extra, to)).toBe(205002);
    expect((await site(extra)).status).toBe(3);
    expect((await client('PUT', 'client/site/status', { ids: [extra], status: 7 })).body.code).toBe(101003);

    await t.deps.db.updateTable('sites').set({ status: 1 }).where('id', '=', extra).execute();
    expect((await client('DELETE', 'client/site', { ids: [extra] })).body.code).toBe(205003);
    expect(await status(extra, 0)).toBe(0);
    expect((await client('DELETE', 'client/site', { ids: [extra] })).status).toBe(200);
  });

  it('only a site in normal status is served at the edge', async () => {
    expect(await served(f.a.node)).toEqual([f.a.site]);
    for (const value of [0, 2]) {
      expect(await status(f.a.site, value)).toBe(0);
      expect(await served(f.a.node)).toEqual([]);
    }
    expect(await status(f.a.site, 1)).toBe(0);
    expect(await served(f.a.node)).toEqual([f.a.site]);
  });

  it('expiry: a past time expires the site and stops it, a later one renews it; the sweep expires due sites', async () => {
    const before = (await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', f.a.zone).executeTakeFirstOrThrow()).revision;
    expect((await client('PUT', 'client/site/expired', { ids: [f.a.site], expiredAt: '2020-01-01T00:00:00Z' })).status).toBe(200);
    expect(await site()).toMatchObject({ status: 3, expiredAt: '2020-01-01T00:00:00.000Z' });
    expect(Number((await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', f.a.zone).executeTakeFirstOrThrow()).revision)).toBeGreaterThan(Number(before));
    expect(await served(f.a.node)).toEqual([]);
    expect(await status(f.a.site, 1)).toBe(205002);
    expect((await client('PUT', 'client/site/expired', { ids: [f.a.site], expiredAt: '2099-01-01T00:00:00+08:00' })).status).toBe(200);
    expect(await site()).toMatchObject({ status: 1, expiredAt: '2098-12-31T16:00:00.000Z' });
    expect(await served(f.a.node)).toEqual([f.a.site]);
    expect((await client('PUT', 'client/site/expired', { ids: [f.a.site], expiredAt: 'tomorrow' })).body.code).toBe(101003);

    await t.deps.db.updateTable('sites').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', f.a.site).execute();
    expect(await expireDueSites(t.deps)).toBe(1);
    expect((await site()).status).toBe(3);
    expect(await expireDueSites(t.deps)).toBe(0);
    expect((await client('PUT', 'client/site/expired', { ids: [f.a.site], expiredAt: null })).status).toBe(200);
    expect(await site()).toMatchObject({ status: 1, expiredAt: null });
  });

  it('forceBackup serves the site from the backup group nodes only; it needs a backup group', async () => {
    const spare = (await client('POST', 'client/node', { zoneID: f.a.zone, name: 'spare', ip: '192.0.2.9' })).body.data.id as number;
    const backup = (await client('POST', `client/zone/${f.a.zone}/group`, { name: 'backup', nodeIDs: [spare] })).body.data.id as number;
    expect((await client('PUT', 'client/site/forceBackup', { ids: [f.a.site], enabled: true })).body.code).toBe(101003);
    expect((await site()).forceBackup).toBe(false);
    expect((await client('PUT', 'client/product', { id: f.a.product, backupGroupID: backup })).status).toBe(200);
    expect(await served(spare)).toEqual([f.a.site]);
    expect((await client('PUT', 'client/site/forceBackup', { ids: [f.a.site], enabled: true })).status).toBe(200);
    expect((await site()).forceBackup).toBe(true);
    expect(await served(f.a.node)).toEqual([]);
    expect(await served(spare)).toEqual([f.a.site]);
    expect((await client('PUT', 'client/site/forceBackup', { ids: [f.a.site], enabled: false })).status).toBe(200);
    expect(await served(f.a.node)).toEqual([f.a.site]);
  });

  it('product change moves sites within the target limit; refresh re-derives the group from the product', async () => {
    const line2 = (await client('POST', `client/zone/${f.a.zone}/group`, { name: 'line-2' })).body.data.id as number;
    const small = (await client('POST', 'client/product', { name: 'small', zoneID: f.a.zone, groupID: f.a.group, siteLimit: 1 })).body.data.id as number;
    const other = (await client('POST', 'client/site', { name: 'other', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    expect((await client('PUT', 'client/site/product/change', { ids: [f.a.site, other], productID: small })).body.code).toBe(204003);
    expect((await site()).productID).toBe(f.a.product);
    expect((await client('PUT', 'client/site/product/change', { ids: [other], productID: small })).status).toBe(200);
    expect(await site(other)).toMatchObject({ productID: small, productName: 'small', groupID: f.a.group });
    expect((await client('PUT', 'client/site/product/change', { ids: [other], productID: f.b.product })).status).toBe(404);

    expect((await client('PUT', 'client/product', { id: small, groupID: line2 })).status).toBe(200);
    expect((await site(other)).groupID).toBe(f.a.group);
    const cname = (await site(other)).cname;
    expect((await client('PUT', 'client/site/product/refresh', { ids: [other] })).status).toBe(200);
    expect(await site(other)).toMatchObject({ groupID: line2, cname });
    await client('PUT', 'client/site/status', { ids: [other], status: 0 });
    await client('DELETE', 'client/site', { ids: [other] });
  });

  it('limitations narrow the product: the domain limit of the site holds', async () => {
    expect((await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { domainLimit: 1, bandwidth: 50 } })).status).toBe(200);
    expect((await site()).limitations).toEqual({ domainLimit: 1, bandwidth: 50 });
    const more = await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'more.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    expect(more.body.code).toBe(401002);
    expect((await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { domainLimit: null } })).status).toBe(200);
    expect((await site()).limitations).toEqual({ bandwidth: 50 });
    expect((await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { bandwidth: -1 } })).body.code).toBe(101003);
    expect((await site()).limitations).toEqual({ bandwidth: 50 });
  });

  it("the bandwidth and connection limits reach the edge: the site's own, else its product's, 0 unlimited", async () => {
    const revision = async () => Number((await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', f.a.zone).executeTakeFirstOrThrow()).revision);
    const limits = async () => (await buildNodeState(t.deps, f.a.node)).data.sites.find((s) => s.siteId === f.a.site)?.limits;
    const before = await revision();
    expect((await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { bandwidth: 20, connections: 300 } })).status).toBe(200);
    expect(await revision()).toBeGreaterThan(before);
    expect(await limits()).toEqual({ bandwidth: 20, connections: 300 });
    const product = (await client('GET', `client/products?page=1&pageSize=100`)).body.data.find((p: { id: number }) => p.id === f.a.product);
    expect((await client('PUT', 'client/product', { ...product, id: f.a.product, connections: 40, bandwidth: 0 })).status).toBe(200);
    await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { bandwidth: null, connections: null } });
    expect(await limits()).toEqual({ connections: 40 });
    await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { connections: 0 } });
    expect(await limits()).toBeUndefined();
    expect((await client('PUT', 'client/site/limitations', { ids: [f.a.site], limitations: { connections: 1.5 } })).body.code).toBe(101003);
    expect(await limits()).toBeUndefined();
  });

  it('a site with layer-4 ports gets its connection limitation rendered into its stream servers', async () => {
    const tcp = (await client('POST', 'client/site', { name: 'tcp-limits', productID: f.a.product, userID: f.userA.id })).body.data.id as number;
    expect((await call(t, 'POST', `user/site/${tcp}/ports`, { token: f.tokens.userA, body: { ports: [{ port: 2400, upstreams: [{ host: '198.51.100.20', port: 22 }] }] } })).status).toBe(200);
    const l4 = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites.find((s) => s.id === tcp)?.l4Firewall;
    expect((await l4())?.connections).toBe(40);
    await client('PUT', 'client/site/limitations', { ids: [tcp], limitations: { connections: 7 } });
    expect((await l4())?.connections).toBe(7);
    await client('PUT', 'client/site/limitations', { ids: [tcp], limitations: { connections: 0 } });
    expect((await l4())?.connections).toBeUndefined();
  });

  it('tags are set in batch and listed; sites are handed to another user of the client', async () => {
    expect((await client('PUT', 'client/site/tags', { ids: [f.a.site], tags: ['vip', 'asia', 'vip'] })).status).toBe(200);
    expect((await client('GET', 'client/site/tags')).body.data).toEqual(['asia', 'vip']);
    expect((await call(t, 'GET', 'client/site/tags', { token: f.tokens.clientB })).body.data).toEqual([]);
    const second = await makeAccount(t, { auth: 'user', email: 'user-a2@example.com', isRoot: true, clientId: f.clientA.id });
    expect((await client('PATCH', 'client/site/users', { ids: [f.a.site], userID: f.userB.id })).body.code).toBe(101003);
    expect((await client('PATCH', 'client/site/users', { ids: [f.a.site], userID: second.id })).status).toBe(200);
    expect((await call(t, 'GET', `user/site/${f.a.site}`, { token: f.tokens.userA })).status).toBe(404);
    expect((await client('GET', `client/sites?userID=${second.id}`)).body.data.map((s: { id: number }) => s.id)).toEqual([f.a.site]);
    expect((await client('PATCH', 'client/site/users', { ids: [f.a.site], userID: f.userA.id })).status).toBe(200);
  });

  it('clearing the cache queues a purge of the site on every enrolled node serving it', async () => {
    await t.deps.db.updateTable('nodes').set({ initialized_at: now() }).where('id', '=', f.a.node).execute();
    const r = await client('DELETE', 'client/site/currentCache', { ids: [f.a.site] });
    expect(r.body.data).toEqual({ nodes: 1 });
    const queued = await t.deps.db.selectFrom('node_commands').select(['kind', 'args', 'status']).where('node_id', '=', f.a.node).execute();
    expect(queued).toContainEqual({ kind: 'clearCache', args: JSON.stringify({ hosts: ['shop.example.com'] }), status: 'queued' });
  });

  it("never touches another client's sites: one foreign id refuses the batch and changes nothing", async () => {
    const foreign = { ids: [f.a.site, f.b.site] };
    for (const [method, url, body] of [
      ['PATCH', 'client/site/users', { ...foreign, userID: f.userA.id }],
      ['PUT', 'client/site/product/change', { ...foreign, productID: f.a.product }],
      ['PUT', 'client/site/product/refresh', foreign],
      ['PUT', 'client/site/limitations', { ...foreign, limitations: { domainLimit: 3 } }],
      ['PUT', 'client/site/expired', { ...foreign, expiredAt: '2020-01-01T00:00:00Z' }],
      ['PUT', 'client/site/forceBackup', { ...foreign, enabled: false }],
      ['PUT', 'client/site/tags', { ...foreign, tags: ['x'] }],
      ['DELETE', 'client/site/currentCache', foreign],
    ] as const) {
      expect((await client(method, url, body)).status, url).toBe(404);
    }
    const missing = await client('GET', 'client/site/999999');
    expect(missing.status).toBe(404);
    expect((await client('GET', `client/site/${f.b.site}`)).body).toEqual(missing.body);
    expect((await client('GET', `client/site/${f.a.site}`)).body.data).toMatchObject({ id: f.a.site, userID: f.userA.id });
    const b = (await call(t, 'GET', `user/site/${f.b.site}`, { token: f.tokens.userB })).body.data;
    expect(b).toMatchObject({ status: 1, tags: [], limitations: {}, expiredAt: null, userID: f.userB.id });
    expect((await call(t, 'PUT', 'client/site/tags', { token: f.tokens.userA, body: { ids: [f.a.site], tags: ['x'] } })).status).toBe(401);
  });
});
