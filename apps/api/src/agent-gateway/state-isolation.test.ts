import { ITEM_LIST_MAX } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { now } from '../db';
import { makeInfra } from '../../test/fixtures';
import { call, lane, makeAccount, signIn, startTestApp, type TestApp } from '../../test/harness';
import { buildNodeState } from './state';

lane("one site's size or bad row never stops the zone's edge state", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let big: number;
  let neighbour: number;
  let neighbourToken: string;

  /** Domains written straight to the database, as an older release or a bulk import could have left them. */
  async function seedDomains(siteId: number, count: number, prefix: string) {
    const at = now();
    for (let i = 0; i < count; i += 500) {
      const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
        site_id: siteId, name: `${prefix}${i + j}.big.test`, status: 1 as const, protocol: 'http' as const, force_ssl: 0 as const, hsts: 0 as const, tags: '[]', created_at: at, updated_at: at,
      }));
      const ids = await t.deps.db.insertInto('domains').values(rows).returning('id').execute();
      await t.deps.db
        .insertInto('upstreams')
        .values(ids.map(({ id }) => ({ domain_id: id, host: '192.0.2.10', port: 80, weight: 1, backup: 0, max_fails: 1, fail_timeout: 10, enabled: 1, hash: '', keepalive: 0 })))
        .execute();
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    const other = await makeAccount(t, { auth: 'user', email: 'neighbour@example.com', isRoot: true, clientId: f.clientA.id });
    neighbourToken = (await signIn(t, 'user', other.email)).accessToken;
    const product = (await call(t, 'GET', 'client/products', { token: f.tokens.clientA })).body.data[0].id;
    neighbour = (await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: 'neighbour', productID: product, userID: other.id } })).body.data.id;
    const added = await call(t, 'POST', `user/site/${neighbour}/domains`, { token: neighbourToken, body: { domains: ['www.neighbour.test'], upstreams: [{ host: '127.0.0.1' }] } });
    expect(added.status).toBe(200);
    big = f.a.site;
  });
  afterAll(() => t.close());

  const served = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites.map((s) => s.id);

  it('refuses domains beyond what one site can carry with 101029', async () => {
    await seedDomains(big, ITEM_LIST_MAX - 1, 'd');
    const last = await call(t, 'POST', `user/site/${big}/domains`, { token: f.tokens.userA, body: { domains: ['last.big.test'], upstreams: [{ host: '127.0.0.1' }] } });
    expect(last.status).toBe(200);
    const over = await call(t, 'POST', `user/site/${big}/domains`, { token: f.tokens.userA, body: { domains: ['over.big.test'], upstreams: [{ host: '127.0.0.1' }] } });
    expect([over.status, over.body.code]).toEqual([400, 101029]);
    expect(await served()).toEqual([big, neighbour].sort((a, b) => a - b));
  });

  it('leaves an oversized site out, visibly, and serves its neighbours', async () => {
    await seedDomains(big, 2, 'extra');
    expect(await served()).toEqual([neighbour]);
    expect(t.logLines.some((l) => l.includes('site left out of the edge state') && l.includes(`"siteId":${big}`))).toBe(true);
    const edited = await call(t, 'POST', `user/site/${neighbour}/domains`, { token: neighbourToken, body: { domains: ['api.neighbour.test'], upstreams: [{ host: '127.0.0.1' }] } });
    expect(edited.status).toBe(200);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.structure.sites[0].domains.map((d) => d.name)).toEqual(['www.neighbour.test', 'api.neighbour.test']);
  });

  it('leaves a site with a bad row out, and serves its neighbours', async () => {
    await t.deps.db.deleteFrom('domains').where('site_id', '=', big).where('name', 'like', 'extra%').execute();
    expect(await served()).toContain(big);
    await t.deps.db.insertInto('site_cache_rules').values({ site_id: big, rule: '{not json', created_at: now() }).execute();
    expect(await served()).toEqual([neighbour]);
  });
});
