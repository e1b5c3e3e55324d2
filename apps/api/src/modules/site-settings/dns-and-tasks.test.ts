import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('site DNS records, cache purges by rule and prefix, warm-cache tasks', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let domainId: number;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com\nwww.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    const domains = await t.deps.db.selectFrom('domains').select(['id', 'name']).where('site_id', '=', f.a.site).orderBy('name').execute();
    domainId = domains[0].id;
    await t.deps.db.updateTable('nodes').set({ initialized_at: new Date().toISOString() }).where('id', '=', f.a.node).execute();
  });
  afterAll(() => t.close());

  const url = (path: string, site = f.a.site) => `user/site/${site}/${path}`;
  const commands = async () =>
    (await t.deps.db.selectFrom('node_commands').select(['id', 'kind', 'args']).where('node_id', '=', f.a.node).orderBy('id').execute()).map((c) => ({
      id: c.id,
      kind: c.kind,
      args: JSON.parse(c.args),
    }));

  it('keeps the DNS records a site wants for its domains, validated by type', async () => {
    const a = await call(t, 'POST', url('setting/dns'), { token: f.tokens.userA, body: { name: 'www', type: 'A', value: '203.0.113.9', ttl: 300, domainIDs: [domainId] } });
    expect(a.body.data).toMatchObject({ name: 'www', type: 'A', value: '203.0.113.9', ttl: 300, domainIDs: [domainId], memo: '' });
    for (const [body, code] of [
      [{ name: 'www', type: 'A', value: '203.0.113.9', ttl: 300 }, 101025],
      [{ name: 'www', type: 'A', value: '2001:db8::1' }, 101003],
      [{ name: 'www', type: 'AAAA', value: '203.0.113.9' }, 101003],
      [{ name: 'www', type: 'CNAME', value: 'not a host' }, 101003],
      [{ name: 'www', type: 'MX', value: 'mail.example.com' }, 101003],
      [{ name: 'www', type: 'SRV', value: 'x' }, 101003],
      [{ name: 'bad name!', type: 'TXT', value: 'x' }, 101003],
      [{ name: 'www', type: 'TXT', value: 'x', ttl: 10 }, 101003],
      [{ name: 'www', type: 'TXT', value: 'x', domainIDs: [999999] }, 101003],
    ] as const) {
      expect((await call(t, 'POST', url('setting/dns'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(code);
    }
    const mx = await call(t, 'POST', url('setting/dns'), { token: f.tokens.userA, body: { name: '@', type: 'MX', value: '10 mail.example.com' } });
    expect(mx.status).toBe(200);
    const list = await call(t, 'GET', `${url('setting/dns')}?page=1&pageSize=1`, { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 2, data: [{ id: a.body.data.id }] });
    expect((await call(t, 'GET', `${url('setting/dns')}?keyword=mail`, { token: f.tokens.userA })).body.data.map((r: { id: number }) => r.id)).toEqual([mx.body.data.id]);
    expect((await call(t, 'GET', url(`setting/dns/${a.body.data.id}/domains`), { token: f.tokens.userA })).body.data).toEqual([{ id: domainId, name: 'shop.example.com' }]);
    const edited = await call(t, 'PUT', url('setting/dns'), { token: f.tokens.userA, body: { id: a.body.data.id, name: 'cdn', type: 'CNAME', value: 'edge.example.net', domainIDs: [] } });
    expect(edited.body.data).toMatchObject({ name: 'cdn', type: 'CNAME', value: 'edge.example.net', domainIDs: [] });
    expect((await call(t, 'PUT', url('setting/dns'), { token: f.tokens.userA, body: { id: a.body.data.id, name: 'cdn', type: 'CNAME', value: '1.2.3.4' } })).body.code).toBe(101003);
    expect((await call(t, 'DELETE', url('setting/dns'), { token: f.tokens.userA, body: { ids: [mx.body.data.id, 999999] } })).status).toBe(404);
    expect((await call(t, 'DELETE', url('setting/dns'), { token: f.tokens.userA, body: { ids: [mx.body.data.id] } })).status).toBe(200);
    expect((await call(t, 'GET', url('setting/dns'), { token: f.tokens.userA })).body.total).toBe(1);
  });

  it('purges URL prefixes of the site (type 2) and what cache rules cache', async () => {
    const seen = (await commands()).length;
    const prefix = await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body: { type: 2, urls: 'https://shop.example.com/img/\nhttp://www.example.com/' } });
    expect(prefix.body.data).toEqual({ nodes: 1 });
    for (const body of [
      { type: 2, urls: 'https://shop.example.com/img' },
      { type: 2, urls: 'https://shop.example.com/img/*/' },
      { type: 2, urls: 'https://other.example.com/' },
      { type: 2, urls: '' },
    ]) {
      expect((await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    const rules = await call(t, 'POST', url('cacheRule'), { token: f.tokens.userA, body: { type: 'url', values: ['https://shop.example.com/static/'], seconds: 60 } });
    const files = await call(t, 'POST', url('cacheRule'), { token: f.tokens.userA, body: { type: 'fileTypes', values: ['png', 'css'], seconds: 60 } });
    const ids = [rules.body.data.cacheRules[0].id, files.body.data.cacheRules[1].id];
    expect((await call(t, 'DELETE', url('cacheRule/caches'), { token: f.tokens.userA, body: { ids } })).body.data).toEqual({ nodes: 1 });
    expect((await call(t, 'DELETE', url('cacheRule/caches'), { token: f.tokens.userA, body: { ids: [999999] } })).status).toBe(404);
    await call(t, 'PUT', url('cacheRule/settings'), { token: f.tokens.userA, body: { ignoreQuery: true } });
    await call(t, 'DELETE', url('setting/urlCache'), { token: f.tokens.userA, body: { type: 1, urls: 'https://shop.example.com/a.css?v=1\nhttps://shop.example.com/a.css?v=2' } });
    expect((await commands()).slice(seen).map((c) => [c.kind, c.args])).toEqual([
      ['clearUrlCache', { prefixes: ['https://shop.example.com/img/', 'http://www.example.com/'] }],
      ['clearUrlCache', { prefixes: ['https://shop.example.com/static/'] }],
      ['clearCache', { hosts: ['shop.example.com', 'www.example.com'], extensions: ['png', 'css'] }],
      ['clearUrlCache', { urls: ['https://shop.example.com/a.css'] }],
    ]);
  });

  it('queues warm-cache tasks for the nodes and reports how far they got', async () => {
    const task = await call(t, 'POST', url('setting/cacheTask'), { token: f.tokens.userA, body: { type: 'warm', urls: 'https://shop.example.com/a.png\nhttp://www.example.com/' } });
    expect(task.body.data).toMatchObject({ type: 'warm', urls: ['https://shop.example.com/a.png', 'http://www.example.com/'], status: 'queued', nodes: 1, finishedNodes: 0 });
    for (const body of [
      { type: 'warm', urls: 'https://other.example.com/a.png' },
      { type: 'warm', urls: 'https://shop.example.com/*.png' },
      { type: 'warm', urls: '' },
      { type: 'clear', urls: 'https://shop.example.com/' },
    ]) {
      expect((await call(t, 'POST', url('setting/cacheTask'), { token: f.tokens.userA, body })).body.code, JSON.stringify(body)).toBe(101003);
    }
    const queued = (await commands()).at(-1)!;
    expect(queued).toMatchObject({ kind: 'warmCache', args: { urls: ['https://shop.example.com/a.png', 'http://www.example.com/'] } });
    await t.deps.db.updateTable('node_commands').set({ status: 'done', message: '2 of 2 URLs fetched through the edge', finished_at: new Date().toISOString() }).where('id', '=', queued.id).execute();
    const list = await call(t, 'GET', url('setting/cacheTasks'), { token: f.tokens.userA });
    expect(list.body).toMatchObject({ total: 1, data: [{ id: task.body.data.id, status: 'done', finishedNodes: 1, messages: ['2 of 2 URLs fetched through the edge'] }] });
  });

  it("refuses every call on another user's site, exactly as a missing one", async () => {
    const record = (await call(t, 'GET', url('setting/dns'), { token: f.tokens.userA })).body.data[0];
    const missing = await call(t, 'GET', 'user/site/999999/settings', { token: f.tokens.userB });
    for (const [method, path, body] of [
      ['GET', 'setting/dns', undefined],
      ['POST', 'setting/dns', { name: 'x', type: 'TXT', value: 'x' }],
      ['PUT', 'setting/dns', { id: record.id, name: 'x', type: 'TXT', value: 'x' }],
      ['DELETE', 'setting/dns', { ids: [record.id] }],
      ['GET', `setting/dns/${record.id}/domains`, undefined],
      ['DELETE', 'setting/urlCache', { type: 2, urls: 'https://shop.example.com/' }],
      ['GET', 'setting/cacheTasks', undefined],
      ['POST', 'setting/cacheTask', { type: 'warm', urls: 'https://shop.example.com/' }],
    ] as const) {
      expect((await call(t, method, url(path), { token: f.tokens.userB, body })).body, `${method} ${path}`).toEqual(missing.body);
    }
    expect((await call(t, 'PUT', url('setting/dns', f.b.site), { token: f.tokens.userB, body: { id: record.id, name: 'x', type: 'TXT', value: 'x' } })).status).toBe(404);
    expect((await call(t, 'GET', url(`setting/dns/${record.id}/domains`, f.b.site), { token: f.tokens.userB })).status).toBe(404);
    expect((await call(t, 'GET', url('setting/dns'), { token: f.tokens.userA })).body.data[0]).toEqual(record);
  });
});
