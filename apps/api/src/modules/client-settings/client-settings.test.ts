import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode } from '../../../test/agent-logs';
import { makeInfra } from '../../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';

lane('client nginx, error and trigger-rate settings', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credential: string;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    credential = await enrolNode(t, f.tokens.clientA, f.a.node);
  });
  afterAll(() => t.close());

  const nodeState = async () =>
    (await t.app.inject({ method: 'GET', url: '/agent/v1/state', headers: { authorization: `Node ${credential}` } })).json();
  const nginx = async (token = f.tokens.clientA) => (await call(t, 'GET', 'client/setting/nginx', { token })).body.data;
  const pages = async (token = f.tokens.clientA) => (await call(t, 'GET', 'client/setting/errorPages', { token })).body as { data: any[]; total: number };

  it('sets the nginx directives of each context and hands them to the nodes of the client’s zones', async () => {
    expect(await nginx()).toEqual({ http: '', stream: '', worker: '', custom: '', refusals: [] });
    const before = (await nodeState()).revision;
    const set = async (context: string, directives: string) => call(t, 'PUT', `client/setting/nginx/${context}`, { token: f.tokens.clientA, body: { directives } });
    expect((await set('http', 'client_body_timeout 30s;\n# slow clients\nsend_timeout 20s;')).status).toBe(200);
    await set('worker', 'worker_rlimit_nofile 65535;');
    await set('stream', 'proxy_buffer_size 32k;');
    const custom = await set('custom', "add_header X-Edge 'acme; edge' always;");
    expect(custom.body.data).toMatchObject({ http: 'client_body_timeout 30s;\n# slow clients\nsend_timeout 20s;', worker: 'worker_rlimit_nofile 65535;', custom: "add_header X-Edge 'acme; edge' always;" });
    const state = await nodeState();
    expect(state.revision).toBeGreaterThan(before);
    expect(state.structure.zone.directives).toEqual({
      main: 'worker_rlimit_nofile 65535;',
      http: 'client_body_timeout 30s;\n# slow clients\nsend_timeout 20s;',
      stream: 'proxy_buffer_size 32k;',
      server: "add_header X-Edge 'acme; edge' always;",
    });
  });

  it('refuses directives that are not simple, or that would read files or load code, with 101003, changing nothing', async () => {
    const before = await nginx();
    const revision = (await nodeState()).revision;
    for (const directives of [
      'location / { return 200; }',
      'include /etc/passwd;',
      'load_module modules/x.so;',
      'content_by_lua_block x;',
      'access_log off;',
      'client_body_timeout 30s',
      'keepalive_timeout;',
      'add_header X "open;',
      'Bad-Name 1;',
      'add_header X a\\"b } server { listen 1;',
      'x'.repeat(8193),
    ]) {
      const res = await call(t, 'PUT', 'client/setting/nginx/http', { token: f.tokens.clientA, body: { directives } });
      expect([res.status, res.body.code], directives.slice(0, 40)).toEqual([400, 101003]);
    }
    expect((await call(t, 'PUT', 'client/setting/nginx/events', { token: f.tokens.clientA, body: { directives: '' } })).body.code).toBe(101003);
    expect(await nginx()).toEqual(before);
    expect((await nodeState()).revision).toBe(revision);
  });

  it.skipIf(!existsSync('/usr/lib/nginx/modules/ngx_http_lua_module.so'))('tests the directives with nginx where the API has it: a value nginx refuses is 101003 with its words', async () => {
    const before = await nginx();
    const revision = (await nodeState()).revision;
    for (const [context, directives, said] of [
      ['custom', 'proxy_read_timeout sometimes;', 'proxy_read_timeout'],
      ['http', 'client_max_body_size 1m;', 'duplicate'],
      ['worker', 'no_such_directive on;', 'unknown directive'],
    ]) {
      const res = await call(t, 'PUT', `client/setting/nginx/${context}`, { token: f.tokens.clientA, body: { directives } });
      expect([res.status, res.body.code, res.body.extra.fields[0].field], directives).toEqual([400, 101003, 'directives']);
      expect(res.body.extra.fields[0].message).toContain(said);
      expect(res.body.extra.fields[0].message).not.toContain('ek-nginx-check');
    }
    expect(await nginx()).toEqual(before);
    expect((await nodeState()).revision).toBe(revision);
  });

  it('lists the nodes whose nginx refused the configuration, with what nginx said', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/agent/v1/report',
      headers: { authorization: `Node ${credential}` },
      payload: {
        version: '1.11.0',
        appliedRevision: 1,
        applyError: 'nginx: [emerg] invalid value "sometimes" in /x/nginx.conf:12',
        nginxRunning: true,
        cpuPercent: 1,
        memory: { totalBytes: 1, usedBytes: 0 },
        disk: { totalBytes: 1, usedBytes: 0 },
        network: { rxBytes: 0, txBytes: 0 },
        loadAverage: [0],
        uptimeSeconds: 1,
      },
    });
    expect((await nginx()).refusals).toEqual([{ nodeID: f.a.node, nodeName: 'edge-a', zoneID: f.a.zone, error: 'nginx: [emerg] invalid value "sometimes" in /x/nginx.conf:12' }]);
    expect((await nginx(f.tokens.clientB)).refusals).toEqual([]);
  });

  it('keeps default error pages per client and serves them for the statuses a site has none for', async () => {
    const add = (body: unknown, token = f.tokens.clientA) => call(t, 'POST', 'client/setting/errorPage', { token, body });
    const p502 = await add({ status: 502, type: 'content', body: '<h1>Acme is back soon</h1>' });
    expect(p502.body.data).toMatchObject({ status: 502, type: 'content', body: '<h1>Acme is back soon</h1>' });
    await add({ status: 500, type: 'redirect', body: 'https://status.example.com/' });
    await call(t, 'POST', `user/site/${f.a.site}/errorPage`, { token: f.tokens.userA, body: { status: 500, type: 'content', body: 'site own 500' } });
    const site = (await nodeState()).structure.sites.find((s: { id: number }) => s.id === f.a.site);
    expect(site.errorPages).toEqual([
      { status: 500, type: 'content', body: 'site own 500' },
      { status: 502, type: 'content', body: '<h1>Acme is back soon</h1>' },
    ]);
    expect((await pages()).total).toBe(2);

    const dup = await add({ status: 502, type: 'js', body: 'location.reload()' });
    expect([dup.status, dup.body.code]).toEqual([409, 101025]);
    for (const body of [{ status: 404, type: 'content', body: 'x' }, { status: 502, type: 'redirect', body: 'javascript:alert(1)' }, { status: 400, type: 'content', body: '' }]) {
      expect((await add(body)).body.code, JSON.stringify(body)).toBe(101003);
    }
    const bad = await call(t, 'PUT', 'client/setting/errorPage', { token: f.tokens.clientA, body: { id: p502.body.data.id, type: 'redirect' } });
    expect(bad.body.code).toBe(101003);
    const changed = await call(t, 'PUT', 'client/setting/errorPage', { token: f.tokens.clientA, body: { id: p502.body.data.id, body: 'changed' } });
    expect(changed.body.data).toMatchObject({ status: 502, body: 'changed' });
    expect((await pages()).data.map((p) => p.body)).toEqual(['https://status.example.com/', 'changed']);
  });

  it("never shows or changes another client's error pages, and refuses users", async () => {
    const mine = (await pages()).data[0];
    expect((await pages(f.tokens.clientB)).total).toBe(0);
    const change = await call(t, 'PUT', 'client/setting/errorPage', { token: f.tokens.clientB, body: { id: mine.id, body: 'taken' } });
    const missing = await call(t, 'PUT', 'client/setting/errorPage', { token: f.tokens.clientB, body: { id: 999_999, body: 'taken' } });
    expect([change.status, change.body]).toEqual([missing.status, missing.body]);
    const remove = await call(t, 'DELETE', 'client/setting/errorPage', { token: f.tokens.clientB, body: { ids: [mine.id] } });
    expect(remove.status).toBe(404);
    expect((await pages()).data[0]).toEqual(mine);
    for (const path of ['client/setting/errorPages', 'client/setting/nginx', 'client/setting/frequency']) {
      expect((await call(t, 'GET', path, { token: f.tokens.userA })).status).toBe(401);
    }
    expect((await call(t, 'DELETE', 'client/setting/errorPage', { token: f.tokens.clientA, body: { ids: [mine.id] } })).body.data).toEqual({ ok: true });
    expect((await pages()).total).toBe(1);
  });

  it('keeps predefined trigger rates per client, offered to its users', async () => {
    const initial = (await call(t, 'GET', 'client/setting/frequency', { token: f.tokens.clientA })).body.data;
    expect(initial.rates.map((r: { name: string }) => r.name)).toEqual(['Normal', 'Loose', 'Strict']);
    const rates = [{ name: 'Login', requests: 10, seconds: 60 }, { name: 'API', requests: 1000, seconds: 10 }];
    expect((await call(t, 'PUT', 'client/setting/frequency', { token: f.tokens.clientA, body: { rates } })).body.data).toEqual({ rates });
    expect((await call(t, 'GET', 'user/setting/frequency', { token: f.tokens.userA })).body.data).toEqual({ rates });
    expect((await call(t, 'GET', 'user/setting/frequency', { token: f.tokens.userB })).body.data).toEqual(initial);
    // The anti-CC form offers them: the first starts a new rule.
    const freqs = (await call(t, 'GET', `user/site/${f.a.site}/firewall/setting/anticc/freqs`, { token: f.tokens.userA })).body.data;
    expect(freqs.defaults).toEqual({ seconds: 60, times: 10 });
    expect(freqs.times).toEqual(expect.arrayContaining([10, 1000]));
    expect((await call(t, 'GET', `user/site/${f.b.site}/firewall/setting/anticc/freqs`, { token: f.tokens.userB })).body.data.defaults).toEqual({ seconds: 10, times: 60 });
    for (const body of [{ rates: [] }, { rates: [{ name: 'a', requests: 0, seconds: 1 }] }, { rates: [{ name: 'a', requests: 1, seconds: 1 }, { name: 'a', requests: 2, seconds: 1 }] }, { rates: [{ name: 'a', requests: 1, seconds: 3601 }] }]) {
      expect((await call(t, 'PUT', 'client/setting/frequency', { token: f.tokens.clientA, body })).body.code).toBe(101003);
    }
    expect((await call(t, 'GET', 'client/setting/frequency', { token: f.tokens.clientA })).body.data).toEqual({ rates });
    expect((await call(t, 'PUT', 'client/setting/frequency', { token: f.tokens.userA, body: { rates } })).status).toBe(401);
  });
});
