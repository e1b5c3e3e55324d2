import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('advanced WAF/ACL modules and rules', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let domainId: number;
  let moduleId: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    domainId = (await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA })).body.data[0].id;
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/${path}`;
  const asA = { token: '' };
  const rule = (over: Record<string, unknown> = {}) => ({
    name: 'block bad bots',
    priority: 10,
    logic: 'or',
    conditions: [{ field: 'userAgent', operator: 'contains', value: 'badbot' }, { field: 'ip', operator: 'in', value: ['203.0.113.0/24'] }],
    action: 'deny',
    ...over,
  });

  it('adds modules, refuses a repeated name, renames, and lists them', async () => {
    asA.token = f.tokens.userA;
    const r = await call(t, 'POST', url('module/luaAcls'), { ...asA, body: { modules: [{ name: 'edge rules', memo: 'main' }] } });
    expect(r.body.data[0]).toMatchObject({ name: 'edge rules', memo: 'main', ruleCount: 0, domains: [] });
    moduleId = r.body.data[0].id;
    expect((await call(t, 'POST', url('module/luaAcls'), { ...asA, body: { modules: [{ name: 'edge rules' }] } })).body.code).toBe(101025);
    expect((await call(t, 'POST', url('module/luaAcls'), { ...asA, body: { modules: [{ name: '' }] } })).body.code).toBe(101003);
    const other = (await call(t, 'POST', url('module/luaAcls'), { ...asA, body: { modules: [{ name: 'spare' }] } })).body.data[0];
    expect((await call(t, 'PUT', url('module/luaAcl'), { ...asA, body: { id: other.id, name: 'edge rules' } })).body.code).toBe(101025);
    expect((await call(t, 'PUT', url('module/luaAcl'), { ...asA, body: { id: other.id, name: 'spare two' } })).body.data.name).toBe('spare two');
    const list = await call(t, 'GET', url('module/luaAcls?name=spare'), asA);
    expect(list.body).toMatchObject({ total: 1, data: [{ name: 'spare two' }] });
    expect((await call(t, 'DELETE', url('module/luaAcls'), { ...asA, body: { ids: [other.id] } })).status).toBe(200);
  });

  it('saves rules in priority order and sends only assigned modules with enabled rules to the node', async () => {
    const first = await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: rule() });
    expect(first.body.data).toMatchObject({ name: 'block bad bots', enabled: true, action: 'deny', moduleID: moduleId });
    const second = await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), {
      ...asA, body: rule({ name: 'old path', priority: 5, logic: 'and', conditions: [{ field: 'uri', operator: 'eq', value: '/old' }], action: 'redirect301', redirectURL: 'https://example.com/new' }),
    });
    expect(second.status).toBe(200);
    const listed = await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA);
    expect(listed.body.data.map((r: { name: string }) => r.name)).toEqual(['old path', 'block bad bots']);
    expect((await buildNodeState(t.deps, f.a.node)).data.sites).toEqual([]);

    const before = (await buildNodeState(t.deps, f.a.node)).revision;
    expect((await call(t, 'PUT', url('domains/module/luaAcl'), { ...asA, body: { domainIDs: [domainId], moduleID: moduleId } })).status).toBe(200);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.revision).toBeGreaterThan(before);
    expect(state.data.sites[0].waf?.acl).toEqual([
      {
        id: moduleId,
        domains: ['shop.example.com'],
        rules: [
          expect.objectContaining({ id: second.body.data.id, action: 'redirect301', redirectURL: 'https://example.com/new' }),
          expect.objectContaining({ id: first.body.data.id, logic: 'or', action: 'deny' }),
        ],
      },
    ]);
    const mod = (await call(t, 'GET', url('module/luaAcls'), asA)).body.data[0];
    expect(mod).toMatchObject({ ruleCount: 2, domains: [{ id: domainId, name: 'shop.example.com' }] });
    expect((await call(t, 'GET', url('firewall/setting/adv/exists'), asA)).body.data).toEqual({ exists: true, modules: 1, rules: 2 });

    await call(t, 'PUT', url(`module/luaAcl/${moduleId}/rule/enable`), { ...asA, body: { ids: [second.body.data.id], enabled: false } });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites[0].waf?.acl[0].rules.map((r) => r.id)).toEqual([first.body.data.id]);
    const moved = await call(t, 'PUT', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: { id: first.body.data.id, priority: 1 } });
    expect(moved.body.data).toMatchObject({ priority: 1, name: 'block bad bots', action: 'deny' });
  });

  it.each([
    ['greater on a user agent', { field: 'userAgent', operator: 'gt', value: '5' }, /operator gt does not fit the field userAgent/],
    ['in on a method with no list', { field: 'method', operator: 'in', value: 'GET' }, /needs a list/],
    ['in with an empty list', { field: 'method', operator: 'in', value: [] }, /needs a list/],
    ['a method that is not one', { field: 'method', operator: 'eq', value: 'FETCH' }, /not a valid method/],
    ['contains on an IP', { field: 'ip', operator: 'contains', value: '10.' }, /does not fit the field ip/],
    ['a bad IP', { field: 'ip', operator: 'eq', value: '300.1.1.1' }, /not a valid ip/],
    ['a header with no name', { field: 'header', operator: 'eq', value: 'x' }, /needs a name/],
    ['a frequency that is not a number', { field: 'frequency', operator: 'gt', value: 'many' }, /not a valid frequency/],
    ['a country that is not a code', { field: 'country', operator: 'eq', value: 'Germany' }, /not a valid country/],
    ['a nested quantifier', { field: 'uri', operator: 'contains', value: '(a+)+$', regex: true }, /nested quantifier/],
    ['overlapping alternatives', { field: 'query', operator: 'notContains', value: '(\\w|\\d)*x', regex: true }, /overlapping alternatives/],
    ['a regex on equal', { field: 'uri', operator: 'eq', value: '/x', regex: true }, /only contains and not contains/],
  ])('refuses %s with 101003 naming the condition, saving nothing', async (_, condition, why) => {
    const before = (await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.total;
    const r = await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), {
      ...asA, body: rule({ conditions: [{ field: 'uri', operator: 'eq', value: '/ok' }, condition] }),
    });
    expect(r.body.code).toBe(101003);
    expect(r.body.extra.condition).toBe(2);
    expect(r.body.extra.fields[0].field).toBe('conditions.1');
    expect(r.body.extra.fields[0].message).toMatch(/^condition 2/);
    expect(r.body.extra.fields[0].message).toMatch(why);
    expect((await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.total).toBe(before);
  });

  it('refuses a redirect without a URL, an unknown action, and a bad change to a saved rule', async () => {
    expect((await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: rule({ action: 'redirect302' }) })).body.extra.fields[0].field).toBe('redirectURL');
    expect((await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: rule({ action: 'explode' }) })).body.code).toBe(101003);
    const [saved] = (await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.data;
    const bad = await call(t, 'PUT', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: { id: saved.id, conditions: [{ field: 'asn', operator: 'contains', value: '1' }] } });
    expect(bad.body).toMatchObject({ code: 101003, extra: { condition: 1 } });
    expect((await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.data[0]).toEqual(saved);
  });

  it('keeps a module on domains from being removed, and removes it once taken off', async () => {
    expect((await call(t, 'DELETE', url('module/luaAcls'), { ...asA, body: { ids: [moduleId] } })).body).toMatchObject({ code: 101003, extra: { ids: [moduleId] } });
    await call(t, 'PUT', url('domains/module/luaAcl'), { ...asA, body: { domainIDs: [domainId], moduleID: 0 } });
    expect((await buildNodeState(t.deps, f.a.node)).data.sites).toEqual([]);
    const spare = (await call(t, 'POST', url('module/luaAcls'), { ...asA, body: { modules: [{ name: 'to remove' }] } })).body.data[0];
    await call(t, 'POST', url(`module/luaAcl/${spare.id}/rules`), { ...asA, body: rule() });
    expect((await call(t, 'DELETE', url('module/luaAcls'), { ...asA, body: { ids: [spare.id] } })).status).toBe(200);
    expect((await call(t, 'GET', url('module/luaAcls'), asA)).body.total).toBe(1);
  });

  it("refuses every call on another user's site, modules and rules exactly like missing ones", async () => {
    const [r1] = (await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.data;
    const missing = await call(t, 'GET', 'user/site/999999/module/luaAcls', { token: f.tokens.userB });
    const asB = { token: f.tokens.userB };
    for (const r of [
      await call(t, 'GET', url('module/luaAcls'), asB),
      await call(t, 'POST', url('module/luaAcls'), { ...asB, body: { modules: [{ name: 'x' }] } }),
      await call(t, 'PUT', url('module/luaAcl'), { ...asB, body: { id: moduleId, name: 'x' } }),
      await call(t, 'DELETE', url('module/luaAcls'), { ...asB, body: { ids: [moduleId] } }),
      await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asB),
      await call(t, 'POST', url(`module/luaAcl/${moduleId}/rules`), { ...asB, body: rule() }),
      await call(t, 'PUT', url(`module/luaAcl/${moduleId}/rules`), { ...asB, body: { id: r1.id, name: 'x' } }),
      await call(t, 'DELETE', url(`module/luaAcl/${moduleId}/rules`), { ...asB, body: { ids: [r1.id] } }),
      await call(t, 'PUT', url(`module/luaAcl/${moduleId}/rule/enable`), { ...asB, body: { ids: [r1.id], enabled: false } }),
      await call(t, 'PUT', url('domains/module/luaAcl'), { ...asB, body: { domainIDs: [domainId], moduleID: moduleId } }),
      await call(t, 'GET', url('firewall/setting/adv/exists'), asB),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    const own = f.b.site;
    expect((await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`, own), asB)).status).toBe(404);
    expect((await call(t, 'PUT', url('domains/module/luaAcl', own), { ...asB, body: { domainIDs: [domainId], moduleID: 0 } })).status).toBe(404);
    expect((await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.total).toBe(2);
  });

  it('removes rules', async () => {
    const rules = (await call(t, 'GET', url(`module/luaAcl/${moduleId}/rules`), asA)).body.data;
    await call(t, 'DELETE', url(`module/luaAcl/${moduleId}/rules`), { ...asA, body: { ids: rules.map((r: { id: number }) => r.id) } });
    expect((await call(t, 'GET', url('firewall/setting/adv/exists'), asA)).body.data).toEqual({ exists: false, modules: 1, rules: 0 });
  });
});
