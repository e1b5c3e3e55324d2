import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('lines, products and sites', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  it('groups take only nodes of their zone; a grouped node or a used group is not removed', async () => {
    expect((await call(t, 'GET', 'client/dns/lines', { token: f.tokens.clientA })).body.data).toContain('telecom');
    const foreign = await call(t, 'POST', `client/zone/${f.a.zone}/group`, { token: f.tokens.clientA, body: { name: 'x', nodeIDs: [f.b.node] } });
    expect(foreign.body.code).toBe(203005);
    const badLine = await call(t, 'POST', `client/zone/${f.a.zone}/group`, { token: f.tokens.clientA, body: { name: 'x', line: 'moon' } });
    expect(badLine.body.code).toBe(101003);
    const groups = await call(t, 'GET', `client/zone/${f.a.zone}/groups`, { token: f.tokens.clientA });
    expect(groups.body.data).toEqual([expect.objectContaining({ id: f.a.group, nodeIDs: [f.a.node], line: 'default', dnsResolve: true })]);
    expect((await call(t, 'DELETE', 'client/nodes', { token: f.tokens.clientA, body: { ids: [f.a.node] } })).body.code).toBe(202003);
    expect((await call(t, 'DELETE', `client/zone/${f.a.zone}/group`, { token: f.tokens.clientA, body: { id: f.a.group } })).body.code).toBe(203002);
    expect((await call(t, 'GET', `client/zone/${f.a.zone}/groups`, { token: f.tokens.clientB })).status).toBe(404);
  });

  it('products keep their terms; one in use is not removed; site limits hold', async () => {
    const made = await call(t, 'POST', 'client/product', {
      token: f.tokens.clientA,
      body: { name: 'gold', zoneID: f.a.zone, groupID: f.a.group, siteLimit: 1, trafficPrice: 1.5, sellType: 'commercial', cnameMode: 'custom' },
    });
    expect(made.body.data).toMatchObject({ name: 'gold', siteLimit: 1, trafficPrice: 1.5, sellType: 'commercial', cnameMode: 'custom', domainLimit: 0, siteCount: 0 });
    const changed = await call(t, 'PUT', 'client/product', { token: f.tokens.clientA, body: { id: made.body.data.id, trafficPrice: 2 } });
    expect(changed.body.data).toMatchObject({ trafficPrice: 2, siteLimit: 1, sellType: 'commercial', cnameMode: 'custom' });
    const wrongGroup = await call(t, 'POST', 'client/product', { token: f.tokens.clientA, body: { name: 'x', zoneID: f.a.zone, groupID: f.b.group } });
    expect(wrongGroup.body.code).toBe(101003);
    const site = { name: 'one', productID: made.body.data.id, userID: f.userA.id };
    expect((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: site })).status).toBe(200);
    expect((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: site })).body.code).toBe(204003);
    expect((await call(t, 'DELETE', 'client/product', { token: f.tokens.clientA, body: { id: made.body.data.id } })).body.code).toBe(204002);
    expect((await call(t, 'GET', 'client/products', { token: f.tokens.clientB })).body.data.map((p: { name: string }) => p.name)).toEqual(['plan-b']);
  });

  it('a site gets its CNAME, zone and group from its product; its user sees it', async () => {
    const mine = await call(t, 'GET', `user/site/${f.a.site}`, { token: f.tokens.userA });
    expect(mine.body.data).toMatchObject({ name: 'site-a', status: 1, zoneID: f.a.zone, groupID: f.a.group, cname: expect.stringMatching(/^[0-9a-f]{12}\.cdn\.edgekeep\.local$/) });
    const list = await call(t, 'GET', 'user/sites?status=-1', { token: f.tokens.userA });
    expect(list.body.data.map((s: { name: string }) => s.name).sort()).toEqual(['one', 'site-a']);
    expect((await call(t, 'GET', 'user/sites?status=0', { token: f.tokens.userA })).body.total).toBe(0);
  });

  it('tags are kept sorted and filter the list', async () => {
    const r = await call(t, 'PUT', `user/site/${f.a.site}/tags`, { token: f.tokens.userA, body: { tags: ['shop', 'eu', 'shop'] } });
    expect(r.body.data.tags).toEqual(['eu', 'shop']);
    expect((await call(t, 'GET', 'user/site/tags', { token: f.tokens.userA })).body.data).toEqual(['eu', 'shop']);
    expect((await call(t, 'GET', 'user/sites?tags=eu', { token: f.tokens.userA })).body.data.map((s: { id: number }) => s.id)).toEqual([f.a.site]);
  });

  it('sets status by the rules: no manual expiry, no resuming an expired site', async () => {
    expect((await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 0 } })).status).toBe(200);
    expect((await call(t, 'GET', `user/site/${f.a.site}`, { token: f.tokens.userA })).body.data.status).toBe(0);
    expect((await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 3 } })).body.code).toBe(205002);
    await t.deps.db.updateTable('sites').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', f.a.site).execute();
    expect((await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 1 } })).body.code).toBe(205002);
    await t.deps.db.updateTable('sites').set({ expires_at: null }).where('id', '=', f.a.site).execute();
    expect((await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.a.site], status: 1 } })).status).toBe(200);
  });

  it("never shows or changes another tenant's sites", async () => {
    const missing = await call(t, 'GET', 'user/site/999999', { token: f.tokens.userA });
    expect((await call(t, 'GET', `user/site/${f.b.site}`, { token: f.tokens.userA })).body).toEqual(missing.body);
    expect((await call(t, 'PUT', `user/site/${f.b.site}/tags`, { token: f.tokens.userA, body: { tags: ['x'] } })).status).toBe(404);
    expect((await call(t, 'PATCH', 'client/site', { token: f.tokens.clientA, body: { id: f.b.site, name: 'x' } })).status).toBe(404);
    expect((await call(t, 'PUT', 'client/site/status', { token: f.tokens.clientA, body: { ids: [f.b.site], status: 0 } })).status).toBe(404);
    expect((await call(t, 'DELETE', 'client/site', { token: f.tokens.clientA, body: { ids: [f.b.site] } })).status).toBe(404);
    const other = await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'x', productID: f.b.product, userID: f.userA.id } });
    expect(other.status).toBe(404);
    const otherUser = await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'x', productID: f.a.product, userID: f.userB.id } });
    expect(otherUser.body.code).toBe(101003);
    expect((await call(t, 'GET', `user/site/${f.b.site}`, { token: f.tokens.userB })).body.data.name).toBe('site-b');
  });
});
