import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('site modules: custom headers, URL redirects, CORS', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let shop: number;
  let blog: number;
  const as = (method: string, path: string, body?: unknown, token = f.tokens.userA) => call(t, method, path, { token, body });
  const site = (path: string) => `user/site/${f.a.site}/${path}`;
  const state = async () => (await buildNodeState(t.deps, f.a.node)).data.domainModules;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await as('POST', site('domains'), { domains: 'shop.example.com\nblog.example.com', upstreams: [{ host: '198.51.100.7' }] });
    const domains = (await as('GET', site('domains'))).body.data as { id: number; name: string }[];
    shop = domains.find((d) => d.name === 'shop.example.com')!.id;
    blog = domains.find((d) => d.name === 'blog.example.com')!.id;
  });
  afterAll(() => t.close());

  it('creates a custom-header module, holds one name once per side, and serves it on assigned domains', async () => {
    const m = (await as('PUT', site('module/customHeader'), { name: 'security' })).body.data;
    expect(m).toMatchObject({ name: 'security', count: 0, domains: [] });
    expect((await as('PUT', site('module/customHeader'), { name: 'security' })).body.code).toBe(101025);
    const h = await as('PUT', site(`customHeader/${m.id}/header`), { type: 'response', action: 'set', name: 'X-Frame-Options', value: 'DENY' });
    expect(h.body.data).toMatchObject({ id: expect.any(Number), name: 'X-Frame-Options' });
    await as('PUT', site(`customHeader/${m.id}/header`), { type: 'request', action: 'remove', name: 'X-Debug' });
    const dup = await as('PUT', site(`customHeader/${m.id}/header`), { type: 'response', action: 'set', name: 'x-frame-options', value: 'SAMEORIGIN' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(101025);
    expect((await as('PUT', site(`customHeader/${m.id}/header`), { type: 'response', action: 'set', name: 'Bad Name', value: 'x' })).body.code).toBe(101003);
    expect((await as('PUT', site(`customHeader/${m.id}/header`), { type: 'response', action: 'set', name: 'X-A', value: 'a\r\nb' })).body.code).toBe(101003);
    expect((await as('GET', site(`customHeader/${m.id}/headers`))).body.data).toHaveLength(2);
    expect(await state()).toEqual([]);

    expect((await as('PUT', site('domains/module/customHeader'), { domainIDs: [shop], moduleID: m.id })).status).toBe(200);
    expect(await state()).toEqual([expect.objectContaining({ domainId: shop, headers: [
      { type: 'response', action: 'set', name: 'X-Frame-Options', value: 'DENY' },
      { type: 'request', action: 'remove', name: 'X-Debug', value: '' },
    ] })]);
    expect((await as('GET', site(`domain/${shop}/customHeaders`))).body.data).toMatchObject({ module: { id: m.id, name: 'security' }, headers: [{ name: 'X-Frame-Options' }, { name: 'X-Debug' }] });
    expect((await as('GET', site(`domain/${blog}/customHeaders`))).body.data).toEqual({ module: null, headers: [] });
    expect((await as('GET', site('customHeaders'))).body).toMatchObject({ total: 1, data: [{ id: m.id, count: 2, domains: [{ id: shop }] }] });

    const refused = await as('DELETE', site('customHeaders'), { ids: [m.id] });
    expect(refused.body).toMatchObject({ code: 101003, extra: { ids: [m.id] } });
    await as('PUT', site('domains/module/customHeader'), { domainIDs: [shop], moduleID: 0 });
    expect(await state()).toEqual([]);
    const [first] = (await as('GET', site(`customHeader/${m.id}/headers`))).body.data;
    expect((await as('DELETE', site(`customHeader/${m.id}/headers`), { ids: [first.id] })).status).toBe(200);
    expect((await as('DELETE', site('customHeaders'), { ids: [m.id] })).status).toBe(200);
    expect((await as('GET', site('customHeaders'))).body.total).toBe(0);
  });

  it('keeps redirect rules in order, replaces target text, refuses bad patterns and a 3001st rule', async () => {
    const m = (await as('POST', site('urlRedirects'), { name: 'moves' })).body.data;
    const a = await as('PUT', site(`urlRedirect/${m.id}/url`), { match: 'exact', source: '/old', target: 'https://old.example.com/new', code: 301 });
    expect(a.body.data).toMatchObject({ match: 'exact', keepQuery: true });
    await as('PUT', site(`urlRedirect/${m.id}/url`), { match: 'regex', source: '^/item/(\\d+)$', target: '/products/$1', code: 302 });
    for (const bad of [
      { match: 'regex', source: '(a+)+$', target: '/x', code: 301 },
      { match: 'regex', source: '([', target: '/x', code: 301 },
      { match: 'prefix', source: 'no-slash', target: '/x', code: 301 },
      { match: 'exact', source: '/a', target: 'javascript:alert(1)', code: 301 },
      { match: 'exact', source: '/a', target: '/x', code: 307 },
    ]) {
      expect((await as('PUT', site(`urlRedirect/${m.id}/url`), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('PUT', site(`urlRedirect/${m.id}/url`), { match: 'exact', source: '/old', target: '/y', code: 302 })).body.code).toBe(101025);
    const replaced = await as('POST', site(`urlRedirect/${m.id}/replaceURL`), { from: 'https://old.example.com', to: 'https://new.example.com' });
    expect(replaced.body.data).toEqual({ replaced: 1 });
    const urls = await as('GET', site(`urlRedirect/${m.id}/urls?pageSize=1&page=1`));
    expect(urls.body).toMatchObject({ total: 2, data: [{ source: '/old', target: 'https://new.example.com/new' }] });
    // A replacement that would leave one target invalid, or replaces nothing named, changes no rule.
    for (const bad of [{ from: 'https://new.example.com', to: 'javascript:alert(1)//' }, { from: '/products', to: 'no-slash' }, { from: '', to: '/x' }]) {
      expect((await as('POST', site(`urlRedirect/${m.id}/replaceURL`), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('GET', site(`urlRedirect/${m.id}/urls`))).body.data.map((r: { target: string }) => r.target)).toEqual(['https://new.example.com/new', '/products/$1']);
    expect((await as('GET', site(`urlRedirect/${m.id}/urls?keyword=item`))).body.total).toBe(1);
    await as('PUT', site('domains/module/urlRedirect'), { domainIDs: [shop, blog], moduleID: m.id });
    const s = await state();
    expect(s.map((d) => d.domainId).sort()).toEqual([shop, blog].sort());
    expect(s[0].redirects.map((r) => r.source)).toEqual(['/old', '^/item/(\\d+)$']);

    const at = new Date().toISOString();
    await t.deps.db
      .insertInto('site_module_items')
      .values(Array.from({ length: 2998 }, (_, i) => ({ module_id: m.id, item: JSON.stringify({ match: 'exact', source: `/p${i}`, target: '/', code: 301, keepQuery: true }), created_at: at })))
      .execute();
    const over = await as('PUT', site(`urlRedirect/${m.id}/url`), { match: 'exact', source: '/one-more', target: '/', code: 301 });
    expect(over.body.code).toBe(205007);
    expect((await as('GET', site(`urlRedirect/${m.id}/urls`))).body.total).toBe(3000);
    await as('PUT', site('domains/module/urlRedirect'), { domainIDs: [shop, blog], moduleID: 0 });
    expect((await as('PUT', site('urlRedirects'), { id: m.id, name: 'renamed' })).body.data.name).toBe('renamed');
    expect((await as('DELETE', site('urlRedirects'), { ids: [m.id] })).status).toBe(200);
  });

  it('takes a CORS setting with one origin and a max-age of 1 to 86400 s, and lists it sorted', async () => {
    const good = { name: 'app', allowOrigin: 'https://app.example.net', allowMethods: ['GET', 'POST'], allowHeaders: ['X-Token'], allowCredentials: true, maxAge: 600 };
    for (const bad of [
      { ...good, allowOrigin: 'https://a.example.net,https://b.example.net' },
      { ...good, allowOrigin: 'http://app.example.net' },
      { ...good, allowOrigin: 'https://app.example.net/path' },
      { ...good, maxAge: 0 },
      { ...good, maxAge: 86_401 },
      { ...good, allowMethods: [] },
      { ...good, allowOrigin: '*', allowCredentials: true },
      { ...good, name: '' },
    ]) {
      expect((await as('POST', site('corses'), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('GET', site('corses'))).body.total).toBe(0);
    const c = (await as('POST', site('corses'), good)).body.data;
    expect(c).toMatchObject({ name: 'app', maxAge: 600, exposeHeaders: [], domains: [] });
    await as('POST', site('corses'), { ...good, name: 'any', allowOrigin: '*', allowCredentials: false, maxAge: 86_400 });
    expect((await as('GET', site('corses?sortBy=name&orderBy=asc'))).body.data.map((x: { name: string }) => x.name)).toEqual(['any', 'app']);
    expect((await as('GET', site('corses?sortBy=bogus'))).body.code).toBe(101003);
    expect((await as('PUT', site('corses'), { ...good, id: c.id, maxAge: 1 })).body.data.maxAge).toBe(1);
    expect((await as('PUT', site('domains/module/cors'), { domainIDs: [shop], corsID: c.id })).status).toBe(200);
    expect((await as('GET', site(`module/cors/${c.id}/domains`))).body.data).toEqual([{ id: shop, name: 'shop.example.com' }]);
    expect((await state())[0].cors).toMatchObject({ allowOrigin: 'https://app.example.net', maxAge: 1, allowCredentials: true });
    expect((await as('GET', site('module/exists'))).body.data).toEqual({ customHeader: false, urlRedirect: false, cors: true, proxyRewrite: false, tokenAuth: false, waf: false });
    expect((await as('DELETE', site('corses'), { ids: [c.id] })).body.code).toBe(101003);
  });

  it('keeps referer and header rules per domain and refuses bad ones', async () => {
    const r = await as('POST', site(`domain/${blog}/antiReferers`), { type: 'allow', referers: ['*.example.com', 'partner.example.org'], empty: true });
    expect(r.body.data).toMatchObject({ type: 'allow', referers: ['*.example.com', 'partner.example.org'], empty: true, memo: '' });
    expect((await as('POST', site(`domain/${blog}/antiReferers`), { type: 'allow', referers: ['https://x.com/'] })).body.code).toBe(101003);
    expect((await as('POST', site(`domain/${blog}/antiReferers`), { type: 'maybe', referers: [] })).body.code).toBe(101003);
    const u = await as('PUT', site('antiReferer'), { id: r.body.data.id, domainId: blog, type: 'deny', referers: ['bad.example.org'], empty: false, memo: 'hotlinks' });
    expect(u.body.data).toMatchObject({ type: 'deny', memo: 'hotlinks' });
    const h = await as('POST', site(`domain/${blog}/antiHeaders`), { name: 'User-Agent', operator: 'contains', value: 'sqlmap' });
    expect(h.status).toBe(200);
    expect((await as('POST', site(`domain/${blog}/antiHeaders`), { name: 'User-Agent', operator: 'contains', value: '' })).body.code).toBe(101003);
    expect((await as('POST', site(`domain/${blog}/antiHeaders`), { name: 'X-A', operator: 'regex', value: '(a*)*b' })).body.code).toBe(101003);
    expect((await as('PUT', site('antiHeader'), { id: h.body.data.id, domainId: blog, name: 'X-Scanner', operator: 'exists' })).body.data).toMatchObject({ name: 'X-Scanner', operator: 'exists' });
    expect((await as('GET', site(`domain/${blog}/antiHeaders`))).body.data).toHaveLength(1);
    const blogState = (await state()).find((d) => d.domainId === blog)!;
    expect(blogState.referers).toEqual([{ type: 'deny', referers: ['bad.example.org'], empty: false }]);
    expect(blogState.headerRules).toEqual([{ name: 'X-Scanner', operator: 'exists', value: '' }]);
    expect((await as('PUT', site('antiHeader'), { id: h.body.data.id, domainId: shop, name: 'X-Scanner', operator: 'exists' })).status).toBe(404);
    expect((await as('DELETE', site(`domain/${blog}/antiHeaders`), { ids: [h.body.data.id] })).status).toBe(200);
    expect((await as('DELETE', site(`domain/${blog}/antiReferers`), { ids: [r.body.data.id] })).status).toBe(200);
    expect((await state()).find((d) => d.domainId === blog)).toBeUndefined();
  });

  it("refuses every call on another user's site or objects, exactly as a missing one", async () => {
    const hm = (await as('PUT', site('module/customHeader'), { name: 'mine' })).body.data;
    const rm = (await as('POST', site('urlRedirects'), { name: 'mine' })).body.data;
    const cors = (await as('GET', site('corses'))).body.data[0];
    const ref = (await as('POST', site(`domain/${shop}/antiReferers`), { type: 'deny', referers: ['x.example.org'] })).body.data;
    const hdr = (await as('POST', site(`domain/${shop}/antiHeaders`), { name: 'X-A', operator: 'exists' })).body.data;
    const B = f.tokens.userB;
    const missing = (await as('GET', 'user/site/999999/customHeaders', undefined, B)).body;
    const calls: [string, string, unknown?][] = [
      ['GET', site('customHeaders')],
      ['PUT', site('module/customHeader'), { name: 'x' }],
      ['PUT', site('module/customHeader'), { id: hm.id, name: 'x' }],
      ['DELETE', site('customHeaders'), { ids: [hm.id] }],
      ['GET', site(`customHeader/${hm.id}/headers`)],
      ['PUT', site(`customHeader/${hm.id}/header`), { type: 'request', action: 'set', name: 'X-A', value: '1' }],
      ['DELETE', site(`customHeader/${hm.id}/headers`), { ids: [1] }],
      ['GET', site(`domain/${shop}/customHeaders`)],
      ['PUT', site('domains/module/customHeader'), { domainIDs: [shop], moduleID: hm.id }],
      ['GET', site('urlRedirects')],
      ['POST', site('urlRedirects'), { name: 'x' }],
      ['PUT', site('urlRedirects'), { id: rm.id, name: 'x' }],
      ['DELETE', site('urlRedirects'), { ids: [rm.id] }],
      ['GET', site(`urlRedirect/${rm.id}/urls`)],
      ['PUT', site(`urlRedirect/${rm.id}/url`), { match: 'exact', source: '/a', target: '/b', code: 301 }],
      ['DELETE', site(`urlRedirect/${rm.id}/urls`), { ids: [1] }],
      ['POST', site(`urlRedirect/${rm.id}/replaceURL`), { from: 'a', to: 'b' }],
      ['PUT', site('domains/module/urlRedirect'), { domainIDs: [shop], moduleID: rm.id }],
      ['GET', site('corses')],
      ['POST', site('corses'), { name: 'x', allowOrigin: '*', allowMethods: ['GET'], maxAge: 5 }],
      ['PUT', site('corses'), { id: cors.id, name: 'x', allowOrigin: '*', allowMethods: ['GET'], maxAge: 5 }],
      ['DELETE', site('corses'), { ids: [cors.id] }],
      ['GET', site(`module/cors/${cors.id}/domains`)],
      ['PUT', site('domains/module/cors'), { domainIDs: [shop], corsID: cors.id }],
      ['GET', site('module/exists')],
      ['GET', site(`domain/${shop}/antiReferers`)],
      ['POST', site(`domain/${shop}/antiReferers`), { type: 'deny', referers: ['y.example.org'] }],
      ['PUT', site('antiReferer'), { id: ref.id, domainId: shop, type: 'deny', referers: [] }],
      ['DELETE', site(`domain/${shop}/antiReferers`), { ids: [ref.id] }],
      ['GET', site(`domain/${shop}/antiHeaders`)],
      ['POST', site(`domain/${shop}/antiHeaders`), { name: 'X-B', operator: 'exists' }],
      ['PUT', site('antiHeader'), { id: hdr.id, domainId: shop, name: 'X-B', operator: 'exists' }],
      ['DELETE', site(`domain/${shop}/antiHeaders`), { ids: [hdr.id] }],
    ];
    for (const [method, path, body] of calls) {
      const r = await as(method, path, body, B);
      expect(r.body, `${method} ${path}`).toEqual(missing);
    }
    const own = (p: string) => `user/site/${f.b.site}/${p}`;
    expect((await as('GET', own(`customHeader/${hm.id}/headers`), undefined, B)).status).toBe(404);
    expect((await as('PUT', own('domains/module/customHeader'), { domainIDs: [shop], moduleID: 0 }, B)).status).toBe(404);
    expect((await as('GET', own(`domain/${shop}/antiReferers`), undefined, B)).status).toBe(404);
    expect((await as('GET', site('customHeaders'))).body.data.map((m: { name: string }) => m.name)).toEqual(['mine']);
  });
});
