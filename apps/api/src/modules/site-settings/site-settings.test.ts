import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('cache rules, compression and error pages', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/${path}`;

  it('adds, changes and removes cache rules, validating them the way the edge needs them', async () => {
    const images = await call(t, 'POST', url('cacheRule'), { token: f.tokens.userA, body: { type: 'fileTypes', values: ['png', 'jpg'], seconds: 3600, mode: 'force' } });
    expect(images.body.data.cacheRules).toEqual([{ id: expect.any(Number), type: 'fileTypes', values: ['png', 'jpg'], seconds: 3600, mode: 'force' }]);
    for (const body of [
      { type: 'url', values: ['https://shop.example.com/static'], seconds: 60 },
      { type: 'url', values: ['ftp://shop.example.com/'], seconds: 60 },
      { type: 'url', values: ['https://shop.example.com/*/'], seconds: 60 },
      { type: 'fileTypes', values: ['.png'], seconds: 60 },
      { type: 'fileTypes', values: ['png'], seconds: -1 },
      { type: 'folder', values: ['x'], seconds: 1 },
    ]) {
      expect((await call(t, 'POST', url('cacheRule'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    const id = images.body.data.cacheRules[0].id;
    const noCache = await call(t, 'PUT', url('cacheRule'), { token: f.tokens.userA, body: { id, type: 'url', values: ['https://shop.example.com/api/'], seconds: 0 } });
    expect(noCache.body.data.cacheRules[0]).toMatchObject({ id, type: 'url', seconds: 0, mode: 'follow' });
    const gz = await call(t, 'PUT', url('setting/gzip'), { token: f.tokens.userA, body: { enabled: true } });
    expect(gz.body.data.gzip).toBe(true);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.structure.sites[0]).toMatchObject({ gzip: true, cacheRules: [{ type: 'url', values: ['https://shop.example.com/api/'], seconds: 0 }] });
    expect((await call(t, 'DELETE', url('cacheRules'), { token: f.tokens.userA, body: { ids: [id] } })).body.data.cacheRules).toEqual([]);
  });

  it('keeps one error page per status, of the statuses the spec offers', async () => {
    const page = await call(t, 'POST', url('errorPage'), { token: f.tokens.userA, body: { status: 502, type: 'content', body: '<h1>Back soon</h1>' } });
    expect(page.body.data).toMatchObject({ status: 502, type: 'content' });
    expect((await call(t, 'POST', url('errorPage'), { token: f.tokens.userA, body: { status: 502, type: 'content', body: 'x' } })).body.code).toBe(101025);
    expect((await call(t, 'POST', url('errorPage'), { token: f.tokens.userA, body: { status: 404, type: 'content', body: 'x' } })).body.code).toBe(101003);
    expect((await call(t, 'POST', url('errorPage'), { token: f.tokens.userA, body: { status: 504, type: 'redirect', body: 'javascript:alert(1)' } })).body.code).toBe(101003);
    const redirect = await call(t, 'POST', url('errorPage'), { token: f.tokens.userA, body: { status: 504, type: 'redirect', body: 'https://status.example.com/' } });
    expect(redirect.status).toBe(200);
    const list = await call(t, 'GET', url('errorPages'), { token: f.tokens.userA });
    expect(list.body.data.map((p: { status: number }) => p.status)).toEqual([502, 504]);
    const state = await buildNodeState(t.deps, f.a.node);
    expect(state.structure.sites[0].errorPages).toEqual([
      { status: 502, type: 'content', body: '<h1>Back soon</h1>' },
      { status: 504, type: 'redirect', body: 'https://status.example.com/' },
    ]);
    const edited = await call(t, 'PUT', url('errorPage'), { token: f.tokens.userA, body: { id: page.body.data.id, status: 500, type: 'js', body: 'location.reload()' } });
    expect(edited.body.data).toMatchObject({ status: 500, type: 'js' });
    expect((await call(t, 'DELETE', url('errorPage'), { token: f.tokens.userA, body: { ids: [page.body.data.id, redirect.body.data.id] } })).status).toBe(200);
  });

  it("queues purges for the enrolled nodes of the site's zone, of the site's own URLs only", async () => {
    expect((await call(t, 'DELETE', url('setting/currentCache'), { token: f.tokens.userA })).body.data).toEqual({ nodes: 0 });
    await t.deps.db.updateTable('nodes').set({ initialized_at: new Date().toISOString() }).where('id', '=', f.a.node).execute();
    expect((await call(t, 'DELETE', url('setting/currentCache'), { token: f.tokens.userA })).body.data).toEqual({ nodes: 1 });
    const urls = await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body: { type: 1, urls: 'https://shop.example.com/a.png\nhttp://shop.example.com/b.css' } });
    expect(urls.body.data).toEqual({ nodes: 1 });
    const queued = await t.deps.db.selectFrom('node_commands').select(['kind', 'args']).where('node_id', '=', f.a.node).orderBy('id').execute();
    expect(queued.map((c) => [c.kind, JSON.parse(c.args)])).toEqual([
      ['clearCache', { hosts: ['shop.example.com'] }],
      ['clearUrlCache', { urls: ['https://shop.example.com/a.png', 'http://shop.example.com/b.css'] }],
    ]);
    const foreign = await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body: { type: 1, urls: 'https://other.example.com/a.png' } });
    expect(foreign.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'urls' }] } });
    for (const body of [{ type: 1, urls: 'https://shop.example.com/*.png' }, { type: 2, urls: 'https://shop.example.com/img' }, { type: 3, urls: 'https://shop.example.com/' }, { type: '1', urls: 'https://shop.example.com/' }]) {
      expect((await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    expect((await call(t, 'DELETE', url('setting/currentCache'), { token: f.tokens.userB })).status).toBe(404);
  });

  it("refuses every settings call on another user's site", async () => {
    const rule = await call(t, 'POST', url('cacheRule'), { token: f.tokens.userA, body: { type: 'fileTypes', values: ['css'], seconds: 60 } });
    const id = rule.body.data.cacheRules[0].id;
    const missing = await call(t, 'GET', 'user/site/999999/settings', { token: f.tokens.userB });
    for (const r of [
      await call(t, 'GET', url('settings'), { token: f.tokens.userB }),
      await call(t, 'POST', url('cacheRule'), { token: f.tokens.userB, body: { type: 'fileTypes', values: ['css'], seconds: 60 } }),
      await call(t, 'DELETE', url('cacheRules'), { token: f.tokens.userB, body: { ids: [id] } }),
      await call(t, 'PUT', url('setting/gzip'), { token: f.tokens.userB, body: { enabled: false } }),
      await call(t, 'GET', url('errorPages'), { token: f.tokens.userB }),
      await call(t, 'POST', url('errorPage'), { token: f.tokens.userB, body: { status: 500, type: 'content', body: 'x' } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    expect((await call(t, 'DELETE', url('cacheRules', f.b.site), { token: f.tokens.userB, body: { ids: [id] } })).status).toBe(404);
    expect((await call(t, 'GET', url('settings'), { token: f.tokens.userA })).body.data.cacheRules).toHaveLength(1);
  });
});
