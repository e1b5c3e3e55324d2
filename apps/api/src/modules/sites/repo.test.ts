import { afterAll, beforeAll, expect, it } from 'vitest';
import { lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import type { Principal } from '../../http/auth';
import { sitesRepo } from './repo';

lane('the sites repository reaches only the caller’s sites', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const as = (accountId: number, tier: Principal['tier']): Principal => ({
    accountId,
    tier,
    sessionId: 0,
    sessionKind: 'login',
    proxyAccountId: null,
    isRoot: true,
    permissions: new Set(),
  });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
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
});
