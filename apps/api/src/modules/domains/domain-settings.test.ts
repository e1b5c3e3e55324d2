import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/dns-server';
import { makeInfra } from '../../../test/fixtures';
import { grantLicense } from '../../../test/license-fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { buildNodeState } from '../../agent-gateway/state';

const origin = { host: '198.51.100.7', port: 8080 };

lane('domain batch calls and settings', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  const records: Record<string, string> = {};
  let a: string;
  const site = () => `user/site/${f.a.site}`;
  const as = (method: string, path: string, body?: unknown) => call(t, method, `${site()}/${path}`, { token: f.tokens.userA, body });
  const add = async (domains: string[], upstreams: unknown[] = [origin]) => (await as('POST', 'domains', { domains, upstreams })).body.data as { id: number; name: string }[];
  const domainsNamed = async (keywords: string) => (await as('GET', `domains?keywords=${keywords}`)).body.data;

  beforeAll(async () => {
    dns = await startDnsServer(records, ['plain.example.com'], ['broken.example.com']);
    t = await startTestApp({ DNS_RESOLVERS: dns.address });
    f = await makeInfra(t);
    a = f.tokens.userA;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  it('filters the list by tags, CNAME status, force-SSL, certificate status and times', async () => {
    const [one, two] = await add(['one.example.com', 'two.example.com']);
    expect((await as('PUT', 'domain/setting/tags', { ids: [one.id], tags: ['web', 'api', 'web'] })).status).toBe(200);
    expect((await as('GET', 'domain/setting/tags')).body.data).toEqual(['api', 'web']);
    expect((await as('GET', 'domains?tags=api')).body.data.map((d: { name: string }) => d.name)).toEqual(['one.example.com']);
    expect((await domainsNamed('one'))[0].tags).toEqual(['api', 'web']);
    await as('PATCH', 'domain/setting/forceSSL', { ids: [two.id], forceSSL: true });
    expect((await as('GET', 'domains?forceSSL=true')).body.data.map((d: { id: number }) => d.id)).toEqual([two.id]);
    expect((await as('GET', 'domains?cnameStatuses=pending,active')).body.total).toBe(2);
    expect((await as('GET', 'domains?cnameStatuses=active')).body.total).toBe(0);
    expect((await as('GET', 'domains?certStatus=none')).body.total).toBe(2);
    expect((await as('GET', 'domains?certStatus=valid')).body.total).toBe(0);
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect((await as('GET', `domains?createdStart=${hourAgo}`)).body.total).toBe(2);
    expect((await as('GET', `domains?createdEnd=${hourAgo}`)).body.total).toBe(0);
    expect((await as('GET', `domains?updatedStart=${new Date(Date.now() + 3_600_000).toISOString()}`)).body.total).toBe(0);
    expect((await as('GET', 'domains?sortBy=name&orderBy=asc')).body.data.map((d: { name: string }) => d.name)).toEqual(['one.example.com', 'two.example.com']);
    for (const bad of ['cnameStatuses=maybe', 'forceSSL=perhaps', 'certStatus=odd', 'createdStart=yesterday', 'sortBy=secret']) {
      expect((await as('GET', `domains?${bad}`)).body.code, bad).toBe(101003);
    }
    expect((await as('PUT', 'domain/setting/tags', { ids: [one.id], tags: ['x'.repeat(65)] })).body.code).toBe(101003);
    expect((await domainsNamed('one'))[0].tags).toEqual(['api', 'web']);
  });

  it('meta list, simple creation, removal by name', async () => {
    expect((await as('GET', 'metaDomains?keyword=ONE')).body.data).toEqual([{ id: expect.any(Number), name: 'one.example.com' }]);
    const made = await as('POST', 'simpleDomains', { domains: 'simple.example.com\nsimple2.example.com', upstreams: '203.0.113.5:8443\n[2001:db8::1]\norigin.example.net' });
    expect(made.status).toBe(200);
    expect(made.body.data[0].upstreams.map((u: { host: string; port: number }) => `${u.host}/${u.port}`)).toEqual(['203.0.113.5/8443', '2001:db8::1/80', 'origin.example.net/80']);
    expect((await as('POST', 'simpleDomains', { domains: 'bad.example.com', upstreams: 'not a host' })).body.code).toBe(101003);
    expect((await as('POST', 'simpleDomains', { domains: 'bad.example.com', upstreams: '1.2.3.4:99999' })).body.code).toBe(101003);
    expect(await domainsNamed('bad')).toEqual([]);
    expect((await as('DELETE', 'domainsByNames', { names: ['simple2.example.com', 'nope.example.com'] })).status).toBe(404);
    expect(await domainsNamed('simple2')).toHaveLength(1);
    expect((await as('DELETE', 'domainsByNames', { names: ['simple2.example.com'] })).status).toBe(200);
    expect(await domainsNamed('simple2')).toEqual([]);
  });

  it('checks each CNAME with a real DNS lookup and stores the status', async () => {
    const { cname } = (await call(t, 'GET', `user/site/${f.a.site}`, { token: a })).body.data;
    records['one.example.com'] = cname;
    records['two.example.com'] = 'elsewhere.example.org';
    const all = await as('PUT', 'domains/checkCNAME', {});
    const byName = Object.fromEntries(all.body.data.map((r: { name: string; cnameStatus: string }) => [r.name, r.cnameStatus]));
    expect(byName).toMatchObject({ 'one.example.com': 'active', 'two.example.com': 'inactive', 'simple.example.com': 'inactive' });
    expect(all.body.data.find((r: { name: string }) => r.name === 'two.example.com').records).toEqual(['elsewhere.example.org']);
    expect((await as('GET', 'domains?cnameStatuses=active')).body.data.map((d: { name: string }) => d.name)).toEqual(['one.example.com']);
    const [one] = await domainsNamed('one');
    expect(one.cnameCheckedAt).not.toBeNull();
    const only = await as('PUT', 'domains/checkCNAME', { ids: [one.id] });
    expect(only.body.data).toHaveLength(1);
    // A server failure decides nothing: the domain stays pending.
    const [broken] = await add(['broken.example.com']);
    expect((await as('PUT', 'domains/checkCNAME', { ids: [broken.id] })).body.data[0]).toMatchObject({ cnameStatus: 'pending', records: [] });
  });

  it('modifies origin hosts, replaces origins in batch and exports text', async () => {
    const [one] = await domainsNamed('one');
    const [two] = await domainsNamed('two');
    const moved = await as('PUT', 'domains/modifyUpstreamIPs', { ids: [one.id, two.id], oldHost: '198.51.100.7', newHost: '198.51.100.8' });
    expect(moved.body.data).toEqual({ changed: 2 });
    expect((await as('PUT', 'domains/modifyUpstreamIPs', { ids: [one.id], oldHost: '198.51.100.8', newHost: 'bad host' })).body.code).toBe(101003);
    expect((await as('PUT', 'domains/upstreams', { ids: [two.id], upstreams: [{ host: '203.0.113.9', enabled: false }] })).body.code).toBe(401008);
    expect((await as('PUT', 'domains/upstreams', { ids: [two.id], upstreams: [{ host: '203.0.113.9', port: 81, keepalive: 0 }, { host: '203.0.113.10', hash: '$request_uri' }] })).status).toBe(200);
    const text = await t.app.inject({ method: 'POST', url: `/api/v1/${site()}/domains/export`, headers: { authorization: `Bearer ${a}` }, payload: { ids: [one.id, two.id] } });
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.body).toBe('one.example.com 198.51.100.8:8080\ntwo.example.com 203.0.113.9:81 203.0.113.10:80\n');
  });

  it('pages and searches a domain’s origins; keeps upstream fields', async () => {
    const [two] = await domainsNamed('two');
    const page = await as('GET', `domain/${two.id}/upstreams?page=1&pageSize=1&keyword=113.10`);
    expect(page.body).toMatchObject({ total: 1, data: [{ host: '203.0.113.10', hash: '$request_uri', keepalive: 16, weight: 1, port: 80 }] });
    expect((await as('GET', `domain/${two.id}/upstreams?pageSize=1`)).body).toMatchObject({ total: 2, data: [{ host: '203.0.113.9', keepalive: 0 }] });
    expect((await as('POST', `domain/${two.id}/upstreams`, { upstreams: [{ host: '203.0.113.11', hash: 'rm -rf /' }] })).body.code).toBe(101003);
    expect((await as('POST', `domain/${two.id}/upstreams`, { upstreams: [{ host: '203.0.113.11', keepalive: 5000 }] })).body.code).toBe(101003);
  });

  it('status: enabling a twin of another tenant’s enabled domain is refused (401001)', async () => {
    const [theirs] = (await call(t, 'POST', `user/site/${f.b.site}/domains`, { token: f.tokens.userB, body: { domains: ['shared.twin.test'], upstreams: [origin] } })).body.data;
    await call(t, 'PUT', `user/site/${f.b.site}/domain/setting/status`, { token: f.tokens.userB, body: { ids: [theirs.id], status: 0 } });
    const [mine] = await add(['shared.twin.test']);
    await call(t, 'PUT', `user/site/${f.b.site}/domain/setting/status`, { token: f.tokens.userB, body: { ids: [theirs.id], status: 1 } }).then((r) => expect(r.body.code).toBe(401001));
    expect((await as('PUT', 'domain/setting/status', { ids: [mine.id], status: 0 })).status).toBe(200);
    expect((await call(t, 'PUT', `user/site/${f.b.site}/domain/setting/status`, { token: f.tokens.userB, body: { ids: [theirs.id], status: 1 } })).status).toBe(200);
    expect((await as('PUT', 'domain/setting/status', { ids: [mine.id], status: 1 })).body.code).toBe(401001);
    expect((await domainsNamed('shared'))[0].status).toBe(0);
    expect((await as('PUT', 'domain/setting/status', { ids: [mine.id], status: 2 })).body.code).toBe(101003);
  });

  it('auto-SSL is a flag counted against the license (401004)', async () => {
    const [one] = await domainsNamed('one');
    const [two] = await domainsNamed('two');
    await grantLicense(t.deps, f.clientA.id, { autoSSLLimit: 1 });
    expect((await as('POST', 'domain/setting/autoSSL', { ids: [one.id], autoSSL: true })).status).toBe(200);
    expect((await as('POST', 'domain/setting/autoSSL', { ids: [one.id], autoSSL: true })).status).toBe(200);
    expect((await as('POST', 'domain/setting/autoSSL', { ids: [two.id], autoSSL: true })).body.code).toBe(401004);
    expect((await domainsNamed('two'))[0].autoSSL).toBe(false);
    await grantLicense(t.deps, f.clientA.id);
  });

  it('balance, scheme and port mapping reach the desired state; the rules of follow and mapping hold', async () => {
    const [two] = await domainsNamed('two');
    const before = (await buildNodeState(t.deps, f.a.node)).revision;
    expect((await as('PATCH', 'domain/setting/balance', { ids: [two.id], balance: 'ip_hash' })).status).toBe(200);
    expect((await as('PATCH', 'domain/setting/balance', { ids: [two.id], balance: 'random' })).body.code).toBe(101003);
    expect((await as('PUT', `domain/${two.id}/scheme`, { scheme: 'follow' })).body.code).toBe(401003);
    const closed = await as('PUT', `domain/${two.id}/scheme`, { scheme: 'https', portMap: { enabled: true, rules: [{ listen: 8081, originPort: 9000 }] } });
    expect(closed.body).toMatchObject({ code: 401003, extra: 'site has no port 8081 open' });
    const set = await as('PUT', `domain/${two.id}/scheme`, { scheme: 'follow', portMap: { enabled: true, rules: [{ listen: 443, originPort: 8443 }] } });
    expect(set.body.data).toMatchObject({ scheme: 'follow', portMap: { enabled: true }, balance: 'ip_hash' });
    expect((await as('PUT', `domain/${two.id}/scheme`, { scheme: 'follow', portMap: { enabled: false, rules: [] } })).body.code).toBe(401003);
    expect((await as('PUT', 'domain', { id: two.id, protocol: 'follow' })).status).toBe(200);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.revision).toBeGreaterThan(before);
    const d = state.structure.sites[0].domains.find((x) => x.name === 'two.example.com')!;
    expect(d).toMatchObject({ originProtocol: 'follow', balance: 'ip_hash', hashKey: '$request_uri', keepalive: 16, portMap: { enabled: true, rules: [{ listen: 443, originPort: 8443 }] } });
    const settings = await as('GET', 'domain/settings?page=1&pageSize=10&domainName=two');
    expect(settings.body).toMatchObject({ total: 1, data: [{ name: 'two.example.com', scheme: 'follow', balance: 'ip_hash', forceSSL: true, autoSSL: false, certStatus: 'none' }] });
  });

  it('copies domains with their origins between the user’s own sites; limits apply', async () => {
    const other = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'site-a2', productID: f.a.product, userID: f.userA.id } })).body.data.id;
    const [one] = await domainsNamed('one');
    const copied = await as('POST', 'domains/copyToSite', { ids: [one.id], targetSiteID: other });
    expect(copied.body.data).toEqual([expect.objectContaining({ name: 'one.example.com', siteID: other, status: 0, tags: ['api', 'web'], upstreams: [expect.objectContaining({ host: '198.51.100.8', port: 8080 })] })]);
    expect((await as('POST', 'domains/copyToSite', { ids: [one.id], targetSiteID: other, enabled: true })).body.errors[0]).toMatchObject({ code: 401001 });
    expect((await as('POST', 'domains/copyToSite', { ids: [one.id], targetSiteID: f.b.site })).status).toBe(404);
    const [two] = await domainsNamed('two');
    const back = await call(t, 'POST', `user/site/${other}/domains/createFrom`, { token: a, body: { sourceSiteID: f.a.site, ids: [two.id] } });
    expect(back.body.data[0]).toMatchObject({ name: 'two.example.com', siteID: other, protocol: 'follow', balance: 'ip_hash', portMap: { enabled: true } });
    expect((await call(t, 'POST', `user/site/${other}/domains/createFrom`, { token: a, body: { sourceSiteID: f.b.site, ids: [two.id] } })).status).toBe(404);
    await grantLicense(t.deps, f.clientA.id, { domainLimit: 1 });
    expect((await call(t, 'POST', `user/site/${other}/domains/createFrom`, { token: a, body: { sourceSiteID: f.a.site, ids: [(await domainsNamed('simple'))[0].id] } })).body.code).toBe(401002);
    await grantLicense(t.deps, f.clientA.id);
    expect((await call(t, 'GET', `user/site/${other}/domains`, { token: a })).body.total).toBe(2);
  });

  it("refuses every call on another user's site exactly like a missing one, changing nothing", async () => {
    const [one] = await domainsNamed('one');
    const missing = await call(t, 'GET', 'user/site/999999/metaDomains', { token: f.tokens.userB });
    const b = (method: string, path: string, body?: unknown) => call(t, method, `${site()}/${path}`, { token: f.tokens.userB, body });
    for (const r of [
      await b('GET', 'metaDomains'),
      await b('POST', 'simpleDomains', { domains: 'x.example.com', upstreams: '1.2.3.4' }),
      await b('DELETE', 'domainsByNames', { names: ['one.example.com'] }),
      await b('PUT', 'domains/checkCNAME', {}),
      await b('PUT', 'domains/modifyUpstreamIPs', { ids: [one.id], oldHost: '198.51.100.8', newHost: '1.2.3.4' }),
      await b('POST', 'domains/export', { ids: [one.id] }),
      await b('POST', 'domains/copyToSite', { ids: [one.id], targetSiteID: f.b.site }),
      await call(t, 'POST', `user/site/${f.b.site}/domains/createFrom`, { token: f.tokens.userB, body: { sourceSiteID: f.a.site, ids: [one.id] } }),
      await b('PUT', 'domains/upstreams', { ids: [one.id], upstreams: [origin] }),
      await b('GET', 'domain/setting/tags'),
      await b('PUT', 'domain/setting/tags', { ids: [one.id], tags: ['x'] }),
      await b('PUT', 'domain/setting/status', { ids: [one.id], status: 0 }),
      await b('POST', 'domain/setting/autoSSL', { ids: [one.id], autoSSL: false }),
      await b('PATCH', 'domain/setting/balance', { ids: [one.id], balance: 'least_conn' }),
      await b('PATCH', 'domain/setting/forceSSL', { ids: [one.id], forceSSL: true }),
      await b('GET', 'domain/settings'),
      await b('PUT', `domain/${one.id}/scheme`, { scheme: 'https' }),
      await b('GET', `domain/${one.id}/upstreams?keyword=1`),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    const [after] = await domainsNamed('one');
    expect(after).toMatchObject({ tags: ['api', 'web'], status: 1, balance: 'round_robin', protocol: 'http', upstreams: [expect.objectContaining({ host: '198.51.100.8' })] });
  });
});
