import { createHmac, pbkdf2Sync } from 'node:crypto';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushData } from './control/client';
import { luaData } from './render';
import { httpCall, startMirror } from './test/http-call';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua module');

describe.skipIf(!nginx.ok)('site traffic modules on real nginx', () => {
  let origin: Awaited<ReturnType<typeof startMirror>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let port: number;
  const host = 'shop.example.com';

  const stateWith = (revision: number, domainModules: edge.DomainModules[]) =>
    edge.desiredState.parse({
      revision,
      structure: {
        zone: { httpPorts: [port], httpsPorts: [port + 1], nginx: { workerProcesses: 1 } },
        sites: [
          {
            id: 1,
            name: 'shop',
            domains: [
              { id: 11, name: host, origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 12, name: 'plain.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
              { id: 13, name: 'media.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] },
            ],
          },
        ],
      },
      data: { domainModules },
    });

  const modules = edge.domainModules.parse({
    domainId: 11,
    headers: [
      { type: 'request', action: 'set', name: 'X-From-Edge', value: 'yes' },
      { type: 'request', action: 'remove', name: 'X-Debug' },
      { type: 'response', action: 'set', name: 'X-Frame-Options', value: 'DENY' },
      { type: 'response', action: 'remove', name: 'X-Powered-By' },
    ],
    redirects: [
      { match: 'exact', source: '/old', target: '/new', code: 301 },
      { match: 'prefix', source: '/docs/', target: 'https://docs.example.org/', code: 302 },
      { match: 'regex', source: '^/item/(\\d+)$', target: '/products/$1', code: 301, keepQuery: false },
    ],
    cors: { allowOrigin: 'https://app.example.net', allowMethods: ['GET', 'POST'], allowHeaders: ['X-Token'], exposeHeaders: ['X-Total'], allowCredentials: true, maxAge: 600 },
    referers: [{ type: 'allow', referers: ['*.example.com'], empty: true }],
    headerRules: [{ name: 'User-Agent', operator: 'contains', value: 'sqlmap' }],
  });

  const KEY = 'a-signing-key-of-the-site';
  const salt = '00112233445566778899aabbccddeeff';
  const media = edge.domainModules.parse({
    domainId: 13,
    rewrites: [
      { match: 'prefix', source: '/static/', target: '/assets/v2/' },
      { match: 'regex', source: '^/u/(\\w+)$', target: '/users/$1/profile', host: 'users.internal' },
    ],
    tokenAuth: { key: KEY, scope: 'paths', paths: ['/videos/'] },
    basicAuth: [{
      match: 'prefix',
      pattern: '/admin',
      realm: 'Staff only',
      users: [{ user: 'ops', salt, hash: pbkdf2Sync('s3cret-pass', Buffer.from(salt, 'hex'), edge.BASIC_AUTH_ROUNDS, 20, 'sha1').toString('hex') }],
    }],
  });
  const signed = (path: string, expires: number) => `${path}?expires=${expires}&sign=${createHmac('sha1', KEY).update(`${path}:${expires}`).digest('hex')}`;

  const call = (o: { method?: string; path?: string; headers?: Record<string, string>; on?: string }) =>
    httpCall({ port, method: o.method, path: o.path, headers: { host: o.on ?? host, ...o.headers } });

  beforeAll(async () => {
    origin = await startMirror();
    port = await freePort();
    node = await startEdge({ state: stateWith(1, [modules, media]), controlPort: await freePort() });
  });
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('sets and removes request headers on the way to the origin and response headers on the way back', async () => {
    const r = await call({ path: '/hello', headers: { 'x-debug': '1' } });
    expect(r.status).toBe(200);
    const seen = JSON.parse(r.body);
    expect(seen.headers['x-from-edge']).toBe('yes');
    expect(seen.headers['x-debug']).toBeUndefined();
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['x-powered-by']).toBeUndefined();
    const other = await call({ on: 'plain.example.com', path: '/hello' });
    expect(other.headers['x-powered-by']).toBe('origin');
    expect(other.headers['x-frame-options']).toBeUndefined();
  });

  it('redirects exact paths, prefixes and regex matches to their targets', async () => {
    const exact = await call({ path: '/old?a=1' });
    expect(exact.status).toBe(301);
    expect(exact.headers.location).toMatch(/\/new\?a=1$/);
    const prefix = await call({ path: '/docs/guide/intro' });
    expect(prefix.status).toBe(302);
    expect(prefix.headers.location).toBe('https://docs.example.org/guide/intro');
    const regex = await call({ path: '/item/42?x=y' });
    expect(regex.status).toBe(301);
    expect(regex.headers.location).toMatch(/\/products\/42$/);
    expect((await call({ path: '/item/abc' })).status).toBe(200);
  });

  it('answers CORS preflights at the edge and adds CORS headers for the allowed origin only', async () => {
    const preflight = await call({ method: 'OPTIONS', path: '/api', headers: { origin: 'https://app.example.net', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.net',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'X-Token',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '600',
    });
    const foreign = await call({ method: 'OPTIONS', path: '/api', headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' } });
    expect(foreign.status).toBe(403);
    const simple = await call({ path: '/api', headers: { origin: 'https://app.example.net' } });
    expect(simple.headers['access-control-allow-origin']).toBe('https://app.example.net');
    expect(simple.headers['access-control-expose-headers']).toBe('X-Total');
    expect((await call({ path: '/api', headers: { origin: 'https://evil.example.net' } })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses referers outside the allow list and requests matching a header rule with the 929 block page', async () => {
    expect((await call({ path: '/img.png', headers: { referer: 'https://www.example.com/page' } })).status).toBe(200);
    expect((await call({ path: '/img.png' })).status).toBe(200);
    const denied = await call({ path: '/img.png', headers: { referer: 'https://hotlinker.example.org/' } });
    expect(denied.status).toBe(929);
    expect(denied.body).toContain('Access denied');
    expect(denied.body).toContain('<dd>referer</dd>');
    // the block page gets the domain's response headers too
    expect(denied.headers['x-frame-options']).toBe('DENY');
    const tool = await call({ path: '/', headers: { 'user-agent': 'sqlmap/1.7' } });
    expect(tool.status).toBe(929);
    expect(tool.body).toContain('<dd>header</dd>');
  });

  it('rewrites the path and Host the origin gets, keeping the query', async () => {
    const a = JSON.parse((await call({ on: 'media.example.com', path: '/static/app.js?v=3' })).body);
    expect(a).toMatchObject({ url: '/assets/v2/app.js?v=3', headers: { host: 'media.example.com' } });
    const b = JSON.parse((await call({ on: 'media.example.com', path: '/u/alice' })).body);
    expect(b).toMatchObject({ url: '/users/alice/profile', headers: { host: 'users.internal' } });
    expect(JSON.parse((await call({ on: 'media.example.com', path: '/other' })).body).url).toBe('/other');
  });

  it('serves signed URLs until they expire and refuses tampered or unsigned ones', async () => {
    const future = Math.floor(Date.now() / 1000) + 600;
    const ok = await call({ on: 'media.example.com', path: signed('/videos/a.mp4', future) });
    expect(ok.status).toBe(200);
    const unsigned = await call({ on: 'media.example.com', path: '/videos/a.mp4' });
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toContain('Link not valid');
    expect((await call({ on: 'media.example.com', path: signed('/videos/a.mp4', future).replace('a.mp4', 'b.mp4') })).status).toBe(403);
    expect((await call({ on: 'media.example.com', path: signed('/videos/a.mp4', future).replace(`expires=${future}`, `expires=${future + 1}`) })).status).toBe(403);
    expect((await call({ on: 'media.example.com', path: signed('/videos/a.mp4', future - 1200) })).status).toBe(403);
    expect((await call({ on: 'media.example.com', path: '/free/a.mp4' })).status).toBe(200);
  });

  it('asks for basic auth on protected paths and lets the right user in', async () => {
    const none = await call({ on: 'media.example.com', path: '/admin/panel' });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Basic realm="Staff only", charset="UTF-8"');
    const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });
    expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('ops', 'wrong-pass') })).status).toBe(401);
    expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('eve', 's3cret-pass') })).status).toBe(401);
    expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('ops', 's3cret-pass') })).status).toBe(200);
    expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('ops', 's3cret-pass') })).status).toBe(200);
    expect((await call({ on: 'media.example.com', path: '/public' })).status).toBe(200);
    // Ten wrong credentials within a minute: the address gets the 929 page there, even with the right ones, for the
    // rest of the minute; a request without credentials is still asked for them.
    for (let i = 0; i < 8; i++) expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('ops', `guess-${i}`) })).status).toBe(401);
    expect((await call({ on: 'media.example.com', path: '/admin/panel', headers: basic('ops', 's3cret-pass') })).status).toBe(929);
    expect((await call({ on: 'media.example.com', path: '/admin/panel' })).status).toBe(401);
    expect((await call({ on: 'media.example.com', path: '/public' })).status).toBe(200);
  });

  it('takes new module data through the control endpoint without a reload', async () => {
    const next = stateWith(2, [{ ...modules, referers: [{ type: 'deny', referers: ['hotlinker.example.org'], empty: false }], redirects: [] }]);
    await pushData({ control: node.control, data: luaData({ state: next }) });
    expect((await call({ path: '/img.png', headers: { referer: 'https://hotlinker.example.org/' } })).status).toBe(929);
    expect((await call({ path: '/img.png', headers: { referer: 'https://elsewhere.example.net/' } })).status).toBe(200);
    expect((await call({ path: '/old' })).status).toBe(200);
    await pushData({ control: node.control, data: luaData({ state: stateWith(3, []) }) });
    const bare = await call({ path: '/hello' });
    expect(bare.headers['x-powered-by']).toBe('origin');
  });
});
