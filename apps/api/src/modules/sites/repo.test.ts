import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal as as, call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { findAccount } from '../accounts/repo';
import { anticcRepo } from '../anticc/repo';
import { productsRepo } from '../products/repo';
import { sitesRepo } from './repo';

lane('the sites repository reaches only the caller’s sites', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let ruleB: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const body = { urlRegex: '^/login', seconds: 10, times: 20, type: 2, priority: 5 };
    ruleB = (await call(t, 'POST', `user/site/${f.b.site}/firewall/setting/anticc`, { token: f.tokens.userB, body })).body.data.id;
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
