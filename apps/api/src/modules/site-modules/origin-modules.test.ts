import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('site modules: proxy rewrite and token auth', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let shop: number;
  const as = (method: string, path: string, body?: unknown, token = f.tokens.userA) => call(t, method, path, { token, body });
  const site = (path: string) => `user/site/${f.a.site}/${path}`;
  const state = async () => (await buildNodeState(t.deps, f.a.node)).data.domainModules;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await as('POST', site('domains'), { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] });
    shop = (await as('GET', site('domains'))).body.data[0].id;
  });
  afterAll(() => t.close());

  it('keeps rewrite rules of a module and sends them to the domains it is assigned to', async () => {
    const m = (await as('POST', site('module/proxyRewrites'), { name: 'api v2' })).body.data;
    const r = await as('POST', site(`module/proxyRewrite/${m.id}/rules`), { match: 'prefix', source: '/api/', target: '/v2/api/' });
    expect(r.body.data).toMatchObject({ match: 'prefix', host: '' });
    for (const bad of [
      { match: 'prefix', source: 'api', target: '/x' },
      { match: 'prefix', source: '/a', target: 'https://elsewhere.example.com/' },
      { match: 'regex', source: '(x+)+', target: '/x' },
      { match: 'prefix', source: '/b', target: '/x', host: 'bad host' },
    ]) {
      expect((await as('POST', site(`module/proxyRewrite/${m.id}/rules`), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('POST', site(`module/proxyRewrite/${m.id}/rules`), { match: 'prefix', source: '/api/', target: '/v3/' })).body.code).toBe(101025);
    const u = await as('PUT', site(`module/proxyRewrite/${m.id}/rules`), { id: r.body.data.id, match: 'prefix', source: '/api/', target: '/v3/', host: 'Origin.Example.com' });
    expect(u.body.data).toMatchObject({ target: '/v3/', host: 'origin.example.com' });
    expect((await as('GET', site(`module/proxyRewrite/${m.id}/rules`))).body.data).toHaveLength(1);
    await as('PUT', site('domains/module/proxyRewrite'), { domainIDs: [shop], moduleID: m.id });
    expect((await state())[0].rewrites).toEqual([{ match: 'prefix', source: '/api/', target: '/v3/', host: 'origin.example.com' }]);
    expect((await as('GET', site('module/proxyRewrites'))).body.data[0]).toMatchObject({ name: 'api v2', count: 1, domains: [{ id: shop }] });
    expect((await as('PUT', site('module/proxyRewrite'), { id: m.id, name: 'api v3' })).body.data.name).toBe('api v3');
    await as('PUT', site('domains/module/proxyRewrite'), { domainIDs: [shop], moduleID: 0 });
    expect((await as('DELETE', site(`module/proxyRewrite/${m.id}/rules`), { ids: [r.body.data.id] })).status).toBe(200);
    expect((await as('DELETE', site('module/proxyRewrites'), { ids: [m.id] })).status).toBe(200);
  });

  it('generates or takes a signing key, never answers it again, and signs URLs the edge will accept', async () => {
    const gen = await as('POST', site('module/tokenAuth'), { name: 'videos', scope: 'paths', expiry: 600 });
    expect(gen.body.data.key).toMatch(/^\S{16,}$/);
    const m = gen.body.data;
    expect(m.keyHint).toBe(m.key.slice(-4));
    const listed = (await as('GET', site('module/tokenAuths'))).body;
    expect(listed.data[0]).not.toHaveProperty('key');
    expect(JSON.stringify(listed)).not.toContain(m.key);
    expect((await as('POST', site('module/tokenAuth'), { name: 'short', scope: 'all', key: 'too-short' })).body.code).toBe(101003);
    expect((await as('POST', site('module/tokenAuth'), { name: 'x', scope: 'everything' })).body.code).toBe(101003);
    expect((await as('POST', site('module/tokenAuth'), { name: 'x', scope: 'all', expiry: 10 })).body.code).toBe(101003);

    const paths = await as('POST', site(`module/tokenAuth/${m.id}/auths`), { items: '/videos/\n/downloads/' });
    expect(paths.body.data.map((p: { path: string }) => p.path)).toEqual(['/videos/', '/downloads/']);
    expect((await as('POST', site(`module/tokenAuth/${m.id}/auths`), { items: '/videos/' })).body.code).toBe(101025);
    expect((await as('POST', site(`module/tokenAuth/${m.id}/auths`), { items: 'videos' })).body.code).toBe(101003);

    const s = (await as('POST', site(`module/tokenAuth/${m.id}/sign`), { path: '/videos/a.mp4' })).body.data;
    expect(s.sign).toBe(createHmac('sha1', m.key).update(`/videos/a.mp4:${s.expires}`).digest('hex'));
    expect(s.expires).toBeGreaterThan(Date.now() / 1000 + 590);
    expect(s.url).toBe(`/videos/a.mp4?expires=${s.expires}&sign=${s.sign}`);

    await as('PUT', site('domains/module/tokenAuth'), { domainIDs: [shop], moduleID: m.id });
    expect((await state())[0].tokenAuth).toEqual({ key: m.key, scope: 'paths', paths: ['/videos/', '/downloads/'] });
    const custom = await as('PUT', site('module/tokenAuth'), { id: m.id, name: 'videos', scope: 'all', expiry: 60, key: 'my-own-signing-key-123' });
    expect(custom.body.data).not.toHaveProperty('key');
    expect((await state())[0].tokenAuth).toMatchObject({ key: 'my-own-signing-key-123', scope: 'all' });
    const kept = await as('PUT', site('module/tokenAuth'), { id: m.id, name: 'renamed', scope: 'all', expiry: 60 });
    expect(kept.body.data.keyHint).toBe('-123');
    const row = await t.deps.db.selectFrom('site_modules').select('config').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row.config).not.toContain('my-own-signing-key');
    expect((await as('GET', site('module/exists'))).body.data).toMatchObject({ tokenAuth: true, proxyRewrite: false });
  });

  it("refuses every call on another user's site, exactly as a missing one", async () => {
    const pr = (await as('POST', site('module/proxyRewrites'), { name: 'mine' })).body.data;
    const ta = (await as('GET', site('module/tokenAuths'))).body.data[0];
    const B = f.tokens.userB;
    const missing = (await as('GET', 'user/site/999999/module/proxyRewrites', undefined, B)).body;
    const calls: [string, string, unknown?][] = [
      ['GET', site('module/proxyRewrites')],
      ['POST', site('module/proxyRewrites'), { name: 'x' }],
      ['PUT', site('module/proxyRewrite'), { id: pr.id, name: 'x' }],
      ['DELETE', site('module/proxyRewrites'), { ids: [pr.id] }],
      ['GET', site(`module/proxyRewrite/${pr.id}/rules`)],
      ['POST', site(`module/proxyRewrite/${pr.id}/rules`), { match: 'prefix', source: '/a', target: '/b' }],
      ['PUT', site(`module/proxyRewrite/${pr.id}/rules`), { id: 1, match: 'prefix', source: '/a', target: '/b' }],
      ['DELETE', site(`module/proxyRewrite/${pr.id}/rules`), { ids: [1] }],
      ['PUT', site('domains/module/proxyRewrite'), { domainIDs: [shop], moduleID: pr.id }],
      ['GET', site('module/tokenAuths')],
      ['POST', site('module/tokenAuth'), { name: 'x', scope: 'all' }],
      ['PUT', site('module/tokenAuth'), { id: ta.id, name: 'x', scope: 'all', expiry: 60 }],
      ['DELETE', site('module/tokenAuths'), { ids: [ta.id] }],
      ['GET', site(`module/tokenAuth/${ta.id}/auths`)],
      ['POST', site(`module/tokenAuth/${ta.id}/auths`), { items: '/x/' }],
      ['DELETE', site(`module/tokenAuth/${ta.id}/auths`), { ids: [1] }],
      ['POST', site(`module/tokenAuth/${ta.id}/sign`), { path: '/x' }],
      ['PUT', site('domains/module/tokenAuth'), { domainIDs: [shop], moduleID: ta.id }],
    ];
    for (const [method, path, body] of calls) expect((await as(method, path, body, B)).body, `${method} ${path}`).toEqual(missing);
    expect((await as('POST', `user/site/${f.b.site}/module/tokenAuth/${ta.id}/sign`, { path: '/x' }, B)).status).toBe(404);
  });
});
