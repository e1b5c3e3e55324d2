import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal as as, call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { findAccount } from '../accounts/repo';
import { anticcRepo } from '../anticc/repo';
import { reachedDomainsRepo } from '../client-domains/repo';
import { domainsRepo } from '../domains/repo';
import { siteSettingsRepo } from '../site-settings/repo';
import { trafficPlansRepo } from '../traffic/repo';
import { productsRepo } from '../products/repo';
import { sitesRepo } from './repo';

lane('the sites repository reaches only the caller’s sites', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let ruleB: number;
  let domainB: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const body = { urlRegex: '^/login', seconds: 10, times: 20, type: 2, priority: 5 };
    ruleB = (await call(t, 'POST', `user/site/${f.b.site}/firewall/setting/anticc`, { token: f.tokens.userB, body })).body.data.id;
    const domains = { domains: 'theirs.example.org', upstreams: [{ host: '198.51.100.7' }] };
    domainB = (await call(t, 'POST', `user/site/${f.b.site}/domains`, { token: f.tokens.userB, body: domains })).body.data[0].id;
  });
  afterAll(() => t.close());

  const refused = { code: 101003, status: 404, options: { extra: 'site not found' } };

  it("answers another tenant's site, by its right id, exactly like a missing one", async () => {
    for (const principal of [as(f.userA.id, 'user'), as(f.clientA.id, 'client')]) {
      const sites = sitesRepo(t.deps, principal);
      expect((await sites.get(f.a.site)).name).toBe('site-a');
      await expect(sites.get(f.b.site)).rejects.toMatchObject(refused);
      await expect(sites.get(f.b.site + 1000)).rejects.toMatchObject(refused);
      expect((await sites.all()).map((s) => s.id)).toEqual([f.a.site]);
      expect(await sites.names()).toEqual([{ id: f.a.site, name: 'site-a' }]);
      expect((await sites.page({ page: 1, pageSize: 10, siteName: 'site' })).data.map((s) => s.id)).toEqual([f.a.site]);
      expect((await (await sites.query()).where('sites.id', '=', f.b.site).execute()).length).toBe(0);
      expect((await (await sites.ids()).execute()).map((s) => s.id)).toEqual([f.a.site]);
      expect(await (await sites.ids({ siteId: f.b.site })).execute()).toEqual([]);
      expect((await sites.kinds()).map((s) => s.id)).toEqual([f.a.site]);
      expect((await reachedDomainsRepo(t.deps.db, await sites.ids()).withSite()).map((d) => d.id)).not.toContain(domainB);
      expect((await reachedDomainsRepo(t.deps.db, await sites.ids()).withSite({ siteIds: [f.b.site] })).length).toBe(0);
    }
  });

  it("binds a site's own repositories to the site it was given: another site's rule is not there", async () => {
    const siteA = await sitesRepo(t.deps, as(f.userA.id, 'user')).get(f.a.site);
    const rules = anticcRepo(t.deps.db, siteA);
    await expect(rules.get(ruleB)).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'rule not found' } });
    await expect(rules.owned([ruleB])).rejects.toMatchObject({ code: 101003, status: 404 });
    await rules.setEnabled([ruleB], false);
    await rules.remove([ruleB]);
    const left = await anticcRepo(t.deps.db, await sitesRepo(t.deps, as(f.userB.id, 'user')).get(f.b.site)).get(ruleB);
    expect(left).toMatchObject({ id: ruleB, enabled: true });
  });

  it("binds a site's settings to the site it was given: another site's rules, pages, records and domains are not there", async () => {
    const siteA = await sitesRepo(t.deps, as(f.userA.id, 'user')).get(f.a.site);
    const siteB = await sitesRepo(t.deps, as(f.userB.id, 'user')).get(f.b.site);
    const theirs = siteSettingsRepo(t.deps.db, siteB);
    await theirs.addCacheRule({ type: 'fileTypes', values: ['css'], seconds: 60, mode: 'force' });
    await theirs.addRate({ url: 'http://b.example.org/', rate: 10 });
    const page = await theirs.addErrorPage({ status: 403, type: 'content', body: 'gone' });
    const record = await theirs.addDnsRecord({ name: 'www', type: 'A', value: '192.0.2.9', ttl: 600, domainIDs: [], memo: '' });
    const [cacheRule] = await theirs.cacheRules();
    const [rate] = await theirs.rateRules();

    const mine = siteSettingsRepo(t.deps.db, siteA);
    const refusedAs = (what: string) => ({ code: 101003, status: 404, options: { extra: `${what} not found` } });
    await expect(mine.someCacheRules([cacheRule.id])).rejects.toMatchObject(refusedAs('cache rule'));
    await expect(mine.updateCacheRule(cacheRule.id, { type: 'fileTypes', values: ['js'], seconds: 1, mode: 'force' })).rejects.toMatchObject(refusedAs('cache rule'));
    await expect(mine.removeCacheRules([cacheRule.id])).rejects.toMatchObject(refusedAs('cache rule'));
    await expect(mine.assertRates([rate.id])).rejects.toMatchObject(refusedAs('rate rule'));
    await expect(mine.removeRates([rate.id])).rejects.toMatchObject(refusedAs('rate rule'));
    await expect(mine.updateErrorPage(page.id, { status: 500, type: 'content', body: 'mine' })).rejects.toMatchObject(refusedAs('error page'));
    await expect(mine.removeErrorPages([page.id])).rejects.toMatchObject(refusedAs('error page'));
    await expect(mine.dnsRecord(record.id)).rejects.toMatchObject(refusedAs('DNS record'));
    await expect(mine.removeDnsRecords([record.id])).rejects.toMatchObject(refusedAs('DNS record'));
    await mine.updateRate(rate.id, { url: 'http://a.example.com/', rate: 1 });
    await mine.updateDnsRecord(record.id, { name: 'mine', type: 'A', value: '192.0.2.1', ttl: 60, domainIDs: [], memo: '' });
    expect([await mine.cacheRules(), await mine.rateRules(), (await mine.errorPagesPage({ page: 1, pageSize: 10 })).total]).toEqual([[], [], 0]);
    expect([await mine.hasErrorPages(), await mine.hasDnsRecords(), (await mine.dnsRecordsPage({ page: 1, pageSize: 10 })).total]).toEqual([false, false, 0]);
    expect(await domainsRepo(t.deps.db, siteA).among([domainB])).toEqual([]);

    expect(await theirs.rateRules()).toEqual([{ id: rate.id, url: 'http://b.example.org/', rate: 10 }]);
    expect(await theirs.dnsRecord(record.id)).toMatchObject({ name: 'www', value: '192.0.2.9' });
    expect(await domainsRepo(t.deps.db, siteB).among([domainB])).toEqual([{ id: domainB, name: 'theirs.example.org' }]);
  });

  it("reaches the extra traffic plans of the caller's sites only", async () => {
    const userB = sitesRepo(t.deps, as(f.userB.id, 'user'));
    const id = await trafficPlansRepo(t.deps.db, await userB.ids()).insert(await userB.get(f.b.site), { trafficGB: 5, price: 1, year: 2026, month: 11, memo: '', createdBy: f.userB.id });
    for (const principal of [as(f.userA.id, 'user'), as(f.clientA.id, 'client')]) {
      const plans = trafficPlansRepo(t.deps.db, await sitesRepo(t.deps, principal).ids());
      const refused = { code: 101003, status: 404, options: { extra: 'extra traffic plan not found' } };
      await expect(plans.get(id)).rejects.toMatchObject(refused);
      await expect(plans.some([id])).rejects.toMatchObject(refused);
      expect((await plans.page({ page: 1, pageSize: 10 })).total).toBe(0);
    }
    expect((await trafficPlansRepo(t.deps.db, await userB.ids()).get(id)).site_id).toBe(f.b.site);
  });

  it("reaches only the products on the client's zones: another client's product is not there", async () => {
    const products = productsRepo(t.deps, (await findAccount(t.deps.db, f.clientA.id))!);
    expect((await products.get(f.a.product))?.name).toBe('plan-a');
    expect(await products.get(f.b.product)).toBeUndefined();
    expect((await products.names()).map((p) => p.id)).toEqual([f.a.product]);
    await products.update(f.b.product, { name: 'taken' });
    await products.remove(f.b.product);
    const theirs = productsRepo(t.deps, (await findAccount(t.deps.db, f.clientB.id))!);
    expect((await theirs.get(f.b.product))?.name).toBe('plan-b');
  });
});
