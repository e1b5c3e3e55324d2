import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('anti-CC rules', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/firewall/setting/${path}`;
  const rule = { urlRegex: '^/login', seconds: 10, times: 20, type: 2, priority: 5 };

  it('adds rules, sends enabled ones to the node in priority order, and lists them', async () => {
    const a = await call(t, 'POST', url('anticc'), { token: f.tokens.userA, body: rule });
    expect(a.body.data).toMatchObject({ ...rule, enabled: true });
    const b = await call(t, 'POST', url('anticc'), { token: f.tokens.userA, body: { urlRegex: '.*', seconds: 60, times: 300, type: 1, priority: 1 } });
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.data.sites).toEqual([
      {
        siteId: f.a.site, blacklist: [], whitelist: [],
        waf: { acl: [], anticc: [{ id: b.body.data.id, urlRegex: '.*', seconds: 60, times: 300, type: 1 }, { id: a.body.data.id, urlRegex: '^/login', seconds: 10, times: 20, type: 2 }] },
      },
    ]);
    expect((await call(t, 'GET', url('anticcs?type=2'), { token: f.tokens.userA })).body).toMatchObject({ total: 1, data: [{ urlRegex: '^/login' }] });
    expect((await call(t, 'GET', url('anticc/freqs'), { token: f.tokens.userA })).body.data.defaults).toEqual({ seconds: 10, times: 60 });
  });

  it.each([
    [{ ...rule, urlRegex: '(a+)+$' }, 'urlRegex'],
    [{ ...rule, urlRegex: '(x|xy)*' }, 'urlRegex'],
    [{ ...rule, urlRegex: '[' }, 'urlRegex'],
    [{ ...rule, type: 6 }, 'type'],
    [{ ...rule, seconds: 0 }, 'seconds'],
    [{ ...rule, times: 0 }, 'times'],
  ])('refuses %o with 101003 on %s, saving nothing', async (body, field) => {
    const r = await call(t, 'POST', url('anticc'), { token: f.tokens.userA, body });
    expect(r.body.code).toBe(101003);
    expect(JSON.stringify(r.body.extra.fields)).toContain(field);
    expect((await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.total).toBe(2);
  });

  it('changes a rule, refusing a bad regex on change', async () => {
    const [first] = (await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.data;
    const r = await call(t, 'PUT', url('anticc'), { token: f.tokens.userA, body: { id: first.id, times: 500, type: 5 } });
    expect(r.body.data).toMatchObject({ id: first.id, urlRegex: '.*', times: 500, type: 5 });
    expect((await call(t, 'PUT', url('anticc'), { token: f.tokens.userA, body: { id: first.id, urlRegex: '(.*)*' } })).body.code).toBe(101003);
    const after = (await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.data;
    expect(after.find((x: { id: number }) => x.id === first.id)).toMatchObject({ urlRegex: '.*', times: 500 });
  });

  it('closes rules in batch and removes only closed ones', async () => {
    const ids = (await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.data.map((r: { id: number }) => r.id);
    expect((await call(t, 'DELETE', url('anticcs'), { token: f.tokens.userA, body: { ids } })).body).toMatchObject({ code: 101003, extra: { ids } });
    await call(t, 'PUT', url('anticcs/enable'), { token: f.tokens.userA, body: { ids: [ids[0]], enabled: false } });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites[0].waf?.anticc.map((r) => r.id)).toEqual([ids[1]]);
    expect((await call(t, 'DELETE', url('anticcs'), { token: f.tokens.userA, body: { ids: [ids[0]] } })).status).toBe(200);
    expect((await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.total).toBe(1);
  });

  it("refuses every call on another user's site exactly like a missing one", async () => {
    const [r1] = (await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.data;
    const asB = { token: f.tokens.userB };
    const missing = await call(t, 'GET', 'user/site/999999/firewall/setting/anticcs', asB);
    for (const r of [
      await call(t, 'GET', url('anticcs'), asB),
      await call(t, 'POST', url('anticc'), { ...asB, body: rule }),
      await call(t, 'PUT', url('anticc'), { ...asB, body: { id: r1.id, times: 1 } }),
      await call(t, 'PUT', url('anticcs/enable'), { ...asB, body: { ids: [r1.id], enabled: false } }),
      await call(t, 'DELETE', url('anticcs'), { ...asB, body: { ids: [r1.id] } }),
      await call(t, 'GET', url('anticc/freqs'), asB),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'PUT', url('anticc', f.b.site), { ...asB, body: { id: r1.id, times: 1 } })).status).toBe(404);
    expect((await call(t, 'GET', url('anticcs'), { token: f.tokens.userA })).body.data[0]).toEqual(r1);
  });
});
