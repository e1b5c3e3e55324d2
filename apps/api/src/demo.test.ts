import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, signIn, startTestApp, type TestApp } from '../test/harness';
import { buildNodeState } from './agent-gateway/state';
import { DEMO_ABUSER_IP, ensureDemo } from './demo';

lane('DEMO=1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('makes a demo client and user with a zone, node, line, product and a served site, once', async () => {
    await ensureDemo(t.deps, 'demo password');
    await ensureDemo(t.deps, 'demo password');
    const client = (await signIn(t, 'client', 'demo-client@edgekeep.local', 'demo password')).accessToken;
    const nodes = await call(t, 'GET', 'client/nodes', { token: client });
    expect(nodes.body.data).toEqual([expect.objectContaining({ name: 'local-edge', ip: '127.0.0.1', status: 'unknown' })]);
    const user = (await signIn(t, 'user', 'demo-user@edgekeep.local', 'demo password')).accessToken;
    const sites = await call(t, 'GET', 'user/sites', { token: user });
    expect(sites.body.total).toBe(2);
    const web = sites.body.data.find((x: { name: string }) => x.name === 'demo-site');
    expect(web).toMatchObject({ domainCount: 1 });
    const state = await buildNodeState(t.deps, nodes.body.data[0].id);
    expect(state.structure.sites[0].domains[0]).toMatchObject({ name: 'demo.localhost', origins: [{ host: '127.0.0.1' }] });
    // the demo traffic's cached scripts and its blacklisted sender
    expect(state.structure.sites[0].cacheRules).toEqual([{ type: 'fileTypes', values: ['js', 'css', 'svg'], seconds: 600, mode: 'force' }]);
    expect(state.data.zone).toMatchObject({ ipset: ['192.0.2.0/24', '2001:db8:bad::/48'], invalidDomainLimit: 120 });
    // the demo plan's limits reach the edge, where they cap the site's connections and bandwidth
    const siteData = state.data.sites.find((s) => s.siteId === web.id);
    expect(siteData?.limits).toEqual({ connections: 500, bandwidth: 100 });
    expect(JSON.stringify(siteData?.blacklist)).toContain(DEMO_ABUSER_IP);
    // and its advanced firewall rules, on the demo domain
    expect(siteData?.waf?.acl).toEqual([
      expect.objectContaining({ domains: ['demo.localhost'], rules: [expect.objectContaining({ action: 'deny' }), expect.objectContaining({ action: 'deny' })] }),
    ]);
    // a layer-4 site forwarding its port to the console, which the blacklisted sender may not open
    const tcp = sites.body.data.find((x: { name: string }) => x.name === 'demo-tcp');
    const ports = await call(t, 'GET', `user/site/${tcp.id}/ports`, { token: user });
    expect(ports.body.data).toEqual([expect.objectContaining({ port: t.deps.config.demoEdge.l4Port })]);
    const l4 = await call(t, 'GET', `user/site/${tcp.id}/firewall/l4/blacklists`, { token: user });
    expect(l4.body.data).toEqual([expect.objectContaining({ ip: DEMO_ABUSER_IP, port: t.deps.config.demoEdge.l4Port, enabled: true })]);
  });
});
