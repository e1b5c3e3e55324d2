import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, makeTenants, startTestApp, type TestApp } from '../../../test/harness';
import { grantLicense } from '../../../test/license-fixtures';

lane('every create path asks the license', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t, { licensed: false });
  });
  afterAll(() => t.close());

  const zone = (name: string) => call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name } });

  it('refuses creation without a license (101022)', async () => {
    expect((await zone('none')).body.code).toBe(101022);
  });

  it('counts zones, nodes, sites and domains against the limits, refusing exactly at limit + 1', async () => {
    await grantLicense(t.deps, f.clientA.id, { zoneLimit: 1, nodeLimit: 1, siteLimit: 1, domainLimit: 2, portType: '7' });
    const z = await zone('one');
    expect(z.status).toBe(200);
    expect((await zone('two')).body.code).toBe(201003);

    const l4 = await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: z.body.data.id, name: 'l4', ip: '192.0.2.4', portType: 4 } });
    expect(l4.body.code).toBe(101023);
    const node = await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: z.body.data.id, name: 'n1', ip: '192.0.2.1' } });
    expect(node.status).toBe(200);
    expect((await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: z.body.data.id, name: 'n2', ip: '192.0.2.2' } })).body.code).toBe(202002);

    const group = await call(t, 'POST', `client/zone/${z.body.data.id}/group`, { token: f.tokens.clientA, body: { name: 'g', nodeIDs: [node.body.data.id] } });
    const product = await call(t, 'POST', 'client/product', { token: f.tokens.clientA, body: { name: 'p', zoneID: z.body.data.id, groupID: group.body.data.id } });
    const site = await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 's1', productID: product.body.data.id, userID: f.userA.id } });
    expect(site.status).toBe(200);
    expect((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 's2', productID: product.body.data.id, userID: f.userA.id } })).body.code).toBe(205001);

    const add = (domains: string) => call(t, 'POST', `user/site/${site.body.data.id}/domains`, { token: f.tokens.userA, body: { domains, upstreams: [{ host: '198.51.100.1' }] } });
    expect((await add('a.example.com\nb.example.com\nc.example.com')).body.code).toBe(401002);
    expect((await add('a.example.com\nb.example.com')).status).toBe(200);
    expect((await add('c.example.com')).body.code).toBe(401002);

    const usage = await call(t, 'GET', 'client/license', { token: f.tokens.clientA });
    expect(usage.body.data.usage).toMatchObject({ zone: { used: 1, limit: 1 }, node: { used: 1, limit: 1 }, site: { used: 1, limit: 1 }, domain: { used: 2, limit: 2 } });
  });

  it('an expired license stops creation and leaves what exists served', async () => {
    const expired = await grantLicense(t.deps, f.clientA.id, { days: 1, startAt: '2020-01-01T00:00:00.000Z' });
    expect(expired.expiredAt! < new Date().toISOString()).toBe(true);
    expect((await zone('late')).body.code).toBe(101019);
    const node = (await call(t, 'GET', 'client/nodes', { token: f.tokens.clientA })).body.data[0];
    const state = await buildNodeState(t.deps, node.id);
    expect(state.structure.sites[0].domains.map((d) => d.name)).toEqual(['a.example.com', 'b.example.com']);
  });
});
