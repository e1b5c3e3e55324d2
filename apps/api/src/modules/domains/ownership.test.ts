import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/dns-server';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { registeredDomain } from './ownership';

lane('a registered domain belongs to one tenant', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  const add = (token: string, site: number, domains: string[]) =>
    call(t, 'POST', `user/site/${site}/domains`, { token, body: { domains, upstreams: [{ host: '127.0.0.1' }] } });
  const refusedNames = (r: Awaited<ReturnType<typeof add>>) =>
    r.body.code === 101009 ? r.body.errors.filter((e: { code: number }) => e.code === 401001).flatMap((e: { targets: string[] }) => e.targets) : [];

  beforeAll(async () => {
    // No challenge records: every overlap stays unproven.
    dns = await startDnsServer({});
    t = await startTestApp({ DNS_RESOLVERS: dns.address });
    f = await makeInfra(t);
    expect((await add(f.tokens.userA, f.a.site, ['www.tenanta.test', 'alice.github.io'])).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  it('reads registered domains from the public suffix list', () => {
    expect(registeredDomain('*.shop.tenanta.test')).toBe('tenanta.test');
    expect(registeredDomain('www.example.co.uk')).toBe('example.co.uk');
    expect(registeredDomain('alice.github.io')).toBe('alice.github.io');
  });

  it("refuses another tenant's wildcard, subdomain or apex with 401001, and changes nothing", async () => {
    for (const name of ['*.tenanta.test', 'shop.tenanta.test', 'tenanta.test', '*.www.tenanta.test']) {
      const r = await add(f.tokens.userB, f.b.site, [name, 'www.tenantb.test']);
      expect(r.status, name).toBe(400);
      expect(refusedNames(r), name).toEqual([name]);
    }
    expect((await call(t, 'GET', `user/site/${f.b.site}/domains`, { token: f.tokens.userB })).body.total).toBe(0);
  });

  it('refuses an exact name under the wildcard of another tenant', async () => {
    expect((await add(f.tokens.userA, f.a.site, ['*.wild-a.test'])).status).toBe(200);
    expect(refusedNames(await add(f.tokens.userB, f.b.site, ['api.wild-a.test']))).toEqual(['api.wild-a.test']);
  });

  it('lets a tenant add more names under its own registered domains, and others theirs', async () => {
    expect((await add(f.tokens.userA, f.a.site, ['*.tenanta.test', 'shop.tenanta.test'])).status).toBe(200);
    expect((await add(f.tokens.userB, f.b.site, ['www.tenantb.test', 'bob.github.io'])).status).toBe(200);
  });
});
