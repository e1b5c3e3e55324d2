import { afterAll, beforeAll, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../../agent/src/test/certificates';
import { buildNodeState } from '../../agent-gateway/state';
import { startDnsServer } from '../../../test/dns-server';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

lane('a tenant proves a registered domain by DNS TXT', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  const texts: Record<string, string[]> = {};
  const add = (token: string, site: number, domains: string[]) =>
    call(t, 'POST', `user/site/${site}/domains`, { token, body: { domains, upstreams: [{ host: '127.0.0.1' }] } });
  const ownership = (token: string, domain: string) => call(t, 'GET', `user/domains/ownership?domain=${encodeURIComponent(domain)}`, { token });
  const namesOf = async (token: string, site: number) =>
    Object.fromEntries(((await call(t, 'GET', `user/site/${site}/domains?pageSize=100`, { token })).body.data as { name: string; status: number }[]).map((d) => [d.name, d.status]));
  const zoneRevision = async (zone: number) => (await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', zone).executeTakeFirstOrThrow()).revision;

  beforeAll(async () => {
    dns = await startDnsServer({}, [], [], texts);
    t = await startTestApp({ DNS_RESOLVERS: dns.address });
    f = await makeInfra(t);
    expect((await add(f.tokens.userA, f.a.site, ['www.squatted.test', 'api.squatted.test', 'www.kept.test'])).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  it('answers the caller its own token, the record to publish and whether another tenant holds names there', async () => {
    const b = await ownership(f.tokens.userB, '*.shop.squatted.test');
    expect(b.status).toBe(200);
    expect(b.body.data).toEqual({ registeredDomain: 'squatted.test', record: '_edgekeep-challenge.squatted.test', token: expect.stringMatching(/^edgekeep-[\w-]{32}$/), heldByOthers: true, proven: false });
    expect((await ownership(f.tokens.userB, 'squatted.test')).body.data.token).toBe(b.body.data.token);
    const a = await ownership(f.tokens.userA, 'squatted.test');
    expect(a.body.data).toMatchObject({ heldByOthers: false, proven: false });
    expect(a.body.data.token).not.toBe(b.body.data.token);
    expect((await ownership(f.tokens.userB, 'other.test')).body.data.token).not.toBe(b.body.data.token);
    expect((await ownership(f.tokens.userB, 'not a name')).body.code).toBe(101003);
    expect((await ownership(f.tokens.clientA, 'squatted.test')).status).toBeGreaterThanOrEqual(400);
  });

  it('without the record, refuses with 401001 and names the TXT record to create', async () => {
    const r = await add(f.tokens.userB, f.b.site, ['*.squatted.test', 'www.tenantb.test']);
    expect(r.body).toMatchObject({
      code: 101009,
      errors: [{ code: 401001, targets: ['*.squatted.test'] }],
      extra: { challenges: [{ domain: 'squatted.test', record: '_edgekeep-challenge.squatted.test' }] },
    });
    expect((await namesOf(f.tokens.userB, f.b.site))).toEqual({});
  });

  it("refuses a record carrying another tenant's token or a wrong one", async () => {
    texts['_edgekeep-challenge.squatted.test'] = [(await ownership(f.tokens.userA, 'squatted.test')).body.data.token, 'edgekeep-wrong'];
    expect((await ownership(f.tokens.userB, 'squatted.test')).body.data.proven).toBe(false);
    expect((await add(f.tokens.userB, f.b.site, ['shop.squatted.test'])).body.errors).toEqual([expect.objectContaining({ code: 401001, targets: ['shop.squatted.test'] })]);
    expect((await namesOf(f.tokens.userA, f.a.site))['www.squatted.test']).toBe(1);
  });

  it("with the caller's token, accepts: the other tenant's names there go off and its zone's edges stop routing them", async () => {
    const token = (await ownership(f.tokens.userB, 'squatted.test')).body.data.token;
    texts['_edgekeep-challenge.squatted.test'] = ['unrelated', token];
    expect((await ownership(f.tokens.userB, 'squatted.test')).body.data).toMatchObject({ heldByOthers: true, proven: true });
    const before = await zoneRevision(f.a.zone);
    const r = await add(f.tokens.userB, f.b.site, ['www.squatted.test', '*.squatted.test']);
    expect(r.status).toBe(200);
    expect(await namesOf(f.tokens.userA, f.a.site)).toEqual({ 'www.squatted.test': 0, 'api.squatted.test': 0, 'www.kept.test': 1 });
    expect(await zoneRevision(f.a.zone)).toBeGreaterThan(before);
    const served = (await buildNodeState(t.deps, f.a.node)).structure.sites.flatMap((s) => s.domains.map((d) => d.name));
    expect(served).toEqual(['www.kept.test']);
    expect((await buildNodeState(t.deps, f.b.node)).structure.sites.flatMap((s) => s.domains.map((d) => d.name)).sort()).toEqual(['*.squatted.test', 'www.squatted.test']);
  });

  it('the former holder cannot enable its names again without proving the domain back', async () => {
    const api = (await call(t, 'GET', `user/site/${f.a.site}/domains?keywords=api.squatted`, { token: f.tokens.userA })).body.data[0];
    const r = await call(t, 'PUT', `user/site/${f.a.site}/domain`, { token: f.tokens.userA, body: { id: api.id, status: 1 } });
    expect(r.body).toMatchObject({ code: 401001, extra: { challenges: [{ record: '_edgekeep-challenge.squatted.test' }] } });
    expect((await ownership(f.tokens.userA, 'squatted.test')).body.data).toMatchObject({ heldByOthers: true, proven: false });
  });

  it("refuses a certificate for names under another tenant's registered domain unless proven", async () => {
    const kept = await selfSignedCertificate({ host: 'www.kept.test', names: ['www.kept.test', '*.kept.test'] });
    const upload = () => call(t, 'POST', `user/site/${f.b.site}/certificate`, { token: f.tokens.userB, body: { name: 'kept', certificate: kept.chain, key: kept.key } });
    const refused = await upload();
    expect(refused.body).toMatchObject({ code: 401001, extra: { domains: ['www.kept.test', '*.kept.test'], challenges: [{ record: '_edgekeep-challenge.kept.test' }] } });
    expect((await call(t, 'GET', `user/site/${f.b.site}/certificates`, { token: f.tokens.userB })).body.total).toBe(0);
    const own = await selfSignedCertificate({ host: 'www.kept.test', names: ['www.kept.test', 'www.squatted.test'] });
    const ownCert = await call(t, 'POST', `user/site/${f.a.site}/certificate`, { token: f.tokens.userA, body: { name: 'own', certificate: own.chain, key: own.key } });
    expect(ownCert.body).toMatchObject({ code: 401001, extra: { domains: ['www.squatted.test'] } });
    const mine = await selfSignedCertificate({ host: 'www.kept.test' });
    const cert = (await call(t, 'POST', `user/site/${f.a.site}/certificate`, { token: f.tokens.userA, body: { name: 'own', certificate: mine.chain, key: mine.key } })).body.data;
    // Binding reaches the site's own domains only: another tenant's domain id answers like a missing one.
    const theirs = (await call(t, 'GET', `user/site/${f.b.site}/domains?keywords=www.squatted`, { token: f.tokens.userB })).body.data[0];
    const bind = await call(t, 'PATCH', `user/site/${f.a.site}/certificate/domains`, { token: f.tokens.userA, body: { id: cert.id, domainIDs: [theirs.id] } });
    expect(bind.status).toBe(404);
    expect((await t.deps.db.selectFrom('domains').select('certificate_id').where('id', '=', theirs.id).executeTakeFirstOrThrow()).certificate_id).toBeNull();

    texts['_edgekeep-challenge.kept.test'] = [(await ownership(f.tokens.userB, 'kept.test')).body.data.token];
    expect((await upload()).status).toBe(200);
    expect((await namesOf(f.tokens.userA, f.a.site))['www.kept.test']).toBe(0);
  });
});
