import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('site modules: managed WAF rule set', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let shop: number;
  const as = (method: string, path: string, body?: unknown, token = f.tokens.userA) => call(t, method, path, { token, body });
  const site = (path: string) => `user/site/${f.a.site}/${path}`;
  const served = async () => (await buildNodeState(t.deps, f.a.node)).structure.sites[0].domains[0];

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await as('POST', site('domains'), { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] });
    shop = (await as('GET', site('domains'))).body.data[0].id;
  });
  afterAll(() => t.close());

  it('lists the rule groups of the managed rule set', async () => {
    const r = await as('GET', 'user/module/wafs/defaultRules');
    expect(r.body.data).toEqual(expect.arrayContaining([{ id: 942, name: 'SQL injection' }, { id: 941, name: 'Cross-site scripting' }]));
  });

  it('turns the rule set on per domain as structure, with mode, paranoia and exclusions', async () => {
    for (const bad of [
      { name: 'x', mode: 'block', paranoia: 5 },
      { name: 'x', mode: 'block', paranoia: 0 },
      { name: 'x', mode: 'panic', paranoia: 1 },
      { name: 'x', mode: 'block', paranoia: 1, excludedRules: [123] },
      { name: 'x', mode: 'block', paranoia: 1, excludedRules: [942100, 942100] },
      { name: '', mode: 'block', paranoia: 1 },
    ]) {
      expect((await as('POST', site('module/wafs'), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('GET', site('module/wafs'))).body.total).toBe(0);
    const w = (await as('POST', site('module/wafs'), { name: 'strict', mode: 'block', paranoia: 2, excludedRules: [942100] })).body.data;
    expect(w).toMatchObject({ name: 'strict', mode: 'block', paranoia: 2, excludedRules: [942100], domains: [] });
    expect((await served()).waf).toBeNull();
    const before = (await buildNodeState(t.deps, f.a.node)).revision;
    await as('PUT', site('domains/module/waf'), { domainIDs: [shop], moduleID: w.id });
    const on = await buildNodeState(t.deps, f.a.node);
    expect(on.revision).toBeGreaterThan(before);
    expect(on.structure.sites[0].domains[0].waf).toEqual({ mode: 'block', paranoia: 2, excludedRules: [942100] });
    await as('PUT', site('module/waf'), { id: w.id, name: 'strict', mode: 'detect', paranoia: 1, excludedRules: [] });
    expect((await served()).waf).toEqual({ mode: 'detect', paranoia: 1, excludedRules: [] });
    expect((await as('GET', site('module/wafs'))).body.data[0].domains).toEqual([{ id: shop, name: 'shop.example.com' }]);
    expect((await as('GET', site('module/exists'))).body.data.waf).toBe(true);
    expect((await as('DELETE', site('module/wafs'), { ids: [w.id] })).body.code).toBe(101003);
    await as('PUT', site('domains/module/waf'), { domainIDs: [shop], moduleID: 0 });
    expect((await served()).waf).toBeNull();
    expect((await as('DELETE', site('module/wafs'), { ids: [w.id] })).status).toBe(200);
  });

  it("refuses every call on another user's site, exactly as a missing one", async () => {
    const w = (await as('POST', site('module/wafs'), { name: 'mine', mode: 'block', paranoia: 1 })).body.data;
    const B = f.tokens.userB;
    const missing = (await as('GET', 'user/site/999999/module/wafs', undefined, B)).body;
    for (const [method, path, body] of [
      ['GET', site('module/wafs')],
      ['POST', site('module/wafs'), { name: 'x', mode: 'block', paranoia: 1 }],
      ['PUT', site('module/waf'), { id: w.id, name: 'x', mode: 'block', paranoia: 1 }],
      ['DELETE', site('module/wafs'), { ids: [w.id] }],
      ['PUT', site('domains/module/waf'), { domainIDs: [shop], moduleID: w.id }],
    ] as [string, string, unknown?][]) {
      expect((await as(method, path, body, B)).body, `${method} ${path}`).toEqual(missing);
    }
    expect((await as('PUT', `user/site/${f.b.site}/module/waf`, { id: w.id, name: 'x', mode: 'block', paranoia: 1 }, B)).status).toBe(404);
  });
});
