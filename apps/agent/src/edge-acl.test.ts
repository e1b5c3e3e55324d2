import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushData } from './control/client';
import { luaData } from './render';
import { loggedLine } from './test/access-log';
import { send } from './test/http-client';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua module');

type Waf = edge.SiteWaf;
type RuleIn = Record<string, unknown>;

describe.skipIf(!nginx.ok)('advanced firewall and anti-CC on real nginx', () => {
  let shop: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let port: number;
  let nextId = 1;

  const state = (sites: edge.DesiredStateInput['data'] = {}) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [port], httpsPorts: [port + 1], nginx: { workerProcesses: 1 } },
        sites: [
          { id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: shop.port }] }] },
          { id: 2, name: 'blog', domains: [{ id: 21, name: 'blog.example.com', origins: [{ host: '127.0.0.1', port: shop.port }] }] },
        ],
      },
      data: sites,
    });

  const rule = (r: RuleIn) => ({ id: nextId++, logic: 'and', ...r });
  /** Pushes site 1's advanced firewall (and optionally site 2's), no reload. */
  const push = async (shopWaf: Partial<Waf>, blogWaf?: Partial<Waf>) => {
    const sites = [{ siteId: 1, waf: { acl: [], anticc: [], ...shopWaf } }, ...(blogWaf ? [{ siteId: 2, waf: { acl: [], anticc: [], ...blogWaf } }] : [])];
    await pushData({ control: node.control, data: luaData({ state: state({ sites } as edge.DesiredStateInput['data']) }) });
  };
  const onShop = (rules: RuleIn[]) => push({ acl: [{ domains: ['shop.example.com'], rules: rules.map(rule) as never }] });
  const req = (o: { path?: string; method?: string; headers?: Record<string, string | string[]>; body?: string; host?: string } = {}) =>
    send({ port, host: o.host ?? 'shop.example.com', ...o });

  beforeAll(async () => {
    shop = await startOrigin({ name: 'shop' });
    port = await freePort();
    node = await startEdge({ state: state(), controlPort: await freePort() });
  });
  afterAll(async () => {
    await node?.stop();
    await shop?.close();
  });

  it('deny answers page 929 in the visitor language, only on the assigned domain', async () => {
    await onShop([{ conditions: [{ field: 'userAgent', operator: 'contains', value: 'BadBot' }], action: 'deny' }]);
    const denied = await req({ headers: { 'user-agent': 'Mozilla BadBot/1.0', 'accept-language': 'en-US,en' } });
    expect(denied.status).toBe(929);
    expect(denied.body).toContain('security rules blocked this request');
    expect((await req({ headers: { 'user-agent': 'BadBot', 'accept-language': 'zh-CN' } })).body).toContain('网站的安全规则拦截了这个请求');
    expect((await req({ headers: { 'user-agent': 'BadBot', 'accept-language': 'zh-TW' } })).body).toContain('網站的安全規則阻擋了這個請求');
    expect((await req({ headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
    expect((await req({ host: 'blog.example.com', headers: { 'user-agent': 'BadBot' } })).status).toBe(200);
  });

  it('drop closes the connection without an answer (444)', async () => {
    await onShop([{ conditions: [{ field: 'method', operator: 'in', value: ['DELETE', 'PUT'] }], action: 'drop' }]);
    expect((await req({ method: 'DELETE' })).dropped).toBe(true);
    expect((await req({ method: 'GET' })).status).toBe(200);
  });

  it('allow short-circuits the rules after it', async () => {
    await onShop([
      { conditions: [{ field: 'header', name: 'X-Internal', operator: 'eq', value: 'yes' }], action: 'allow' },
      { conditions: [{ field: 'uri', operator: 'contains', value: '/' }], action: 'deny' },
    ]);
    expect((await req({ headers: { 'x-internal': 'yes' } })).status).toBe(200);
    expect((await req({ headers: { 'x-internal': 'no' } })).status).toBe(929);
  });

  it('tests a header rule against the first header of its name, "-" and "_" alike, as nginx reads $http_<name>', async () => {
    await onShop([
      { conditions: [{ field: 'header', name: 'X_Probe', operator: 'eq', value: 'bad' }], action: 'deny' },
      { conditions: [{ field: 'header', name: 'User-Agent', operator: 'contains', value: 'Evil' }], action: 'deny' },
    ]);
    expect((await req({ headers: { 'X-PROBE': 'bad' } })).status).toBe(929);
    expect((await req({ headers: { 'x-probe': ['bad', 'good'] } })).status).toBe(929);
    expect((await req({ headers: { 'x-probe': ['good', 'bad'] } })).status).toBe(200);
    expect((await req({ headers: { 'x-probe': '' } })).status).toBe(200);
    expect((await req({ headers: { 'user-agent': 'Evil/1.0' } })).status).toBe(929);
    expect((await req()).status).toBe(200);
  });

  it('tests a user agent rule against the first User-Agent header, with header rules beside it or not', async () => {
    const agentRule = { conditions: [{ field: 'userAgent', operator: 'contains', value: 'Evil' }], action: 'deny' };
    for (const rules of [[agentRule], [{ conditions: [{ field: 'header', name: 'X-Probe', operator: 'eq', value: 'bad' }], action: 'deny' }, agentRule]]) {
      await onShop(rules);
      expect((await req({ headers: { 'user-agent': ['Evil/1.0', 'Good/1.0'] } })).status).toBe(929);
      expect((await req({ headers: { 'user-agent': ['Good/1.0', 'Evil/1.0'] } })).status).toBe(200);
      expect((await req({ headers: { 'user-agent': 'Good/1.0' } })).status).toBe(200);
      expect((await req({ headers: { 'x-probe': 'bad' } })).status).toBe(rules.length === 2 ? 929 : 200);
    }
  });

  it('redirects with 301 and 302 to the rule URL', async () => {
    await onShop([
      { conditions: [{ field: 'query', operator: 'contains', value: 'old=1' }], action: 'redirect301', redirectURL: 'https://new.example.com/' },
      { conditions: [{ field: 'referer', operator: 'contains', value: '^https?://spam\\.', regex: true }], action: 'redirect302', redirectURL: 'http://example.com/why' },
    ]);
    const moved = await req({ path: '/page?old=1' });
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('https://new.example.com/');
    const found = await req({ headers: { referer: 'http://spam.example.net/x' } });
    expect(found.status).toBe(302);
    expect(found.headers.location).toBe('http://example.com/why');
    expect((await req({ path: '/page?old=2', headers: { referer: 'http://ok.example.net/' } })).status).toBe(200);
  });

  it('matches on IP lists, cookies, URI regexes and combines conditions with and / or', async () => {
    await onShop([{ conditions: [{ field: 'ip', operator: 'in', value: ['127.0.0.0/8'] }, { field: 'uri', operator: 'contains', value: '^/admin/\\d+$', regex: true }], action: 'deny' }]);
    expect((await req({ path: '/admin/12' })).status).toBe(929);
    expect((await req({ path: '/admin/x' })).status).toBe(200);
    await onShop([{ conditions: [{ field: 'ip', operator: 'notIn', value: ['127.0.0.1'] }], action: 'deny' }]);
    expect((await req()).status).toBe(200);
    await onShop([{ logic: 'or', conditions: [{ field: 'cookie', name: 'session', operator: 'eq', value: 'stolen' }, { field: 'ip', operator: 'eq', value: '192.0.2.1' }], action: 'deny' }]);
    expect((await req({ headers: { cookie: 'a=1; session=stolen' } })).status).toBe(929);
    expect((await req({ headers: { cookie: 'session=mine' } })).status).toBe(200);
    await onShop([{ conditions: [{ field: 'country', operator: 'eq', value: 'CN' }], action: 'deny' }, { conditions: [{ field: 'asn', operator: 'gt', value: '1' }], action: 'deny' }]);
    expect((await req()).status).toBe(200);
  });

  it('runs long rule lists in order across compiled blocks, with values that look like code taken as text', async () => {
    // 78 rules of 1 to 3 conditions (more than one compiled block) that a plain request does not match.
    const filler = Array.from({ length: 78 }, (_, i) => ({
      logic: i % 2 ? 'or' : 'and',
      conditions: [
        { field: 'header', name: `X-Probe-${i}`, operator: 'eq', value: `"]] end os.exit() --${i}` },
        ...(i % 3 ? [{ field: 'userAgent', operator: 'contains', value: `scanner-${i}\\b`, regex: true }] : []),
        ...(i % 5 ? [] : [{ field: 'query', operator: 'contains', value: 'never-there' }]),
      ],
      action: 'deny',
    }));
    await onShop([
      ...filler,
      { conditions: [{ field: 'header', name: 'X-Last', operator: 'eq', value: ']]' }], action: 'drop' },
      { conditions: [{ field: 'userAgent', operator: 'contains', value: 'scanner-79' }], action: 'deny' },
    ]);
    expect((await req()).status).toBe(200);
    expect((await req({ headers: { 'x-last': ']]' } })).dropped).toBe(true);
    expect((await req({ headers: { 'user-agent': 'scanner-79' } })).status).toBe(929);
    // Rule 77 ("or") matches on its header or its user agent, before the drop rule after it.
    expect((await req({ headers: { 'user-agent': 'scanner-77 v2', 'x-last': ']]' } })).status).toBe(929);
    expect((await req({ headers: { 'x-probe-77': '"]] end os.exit() --77', 'x-last': ']]' } })).status).toBe(929);
    // Rule 76 ("and") needs its user agent as well.
    expect((await req({ headers: { 'x-probe-76': '"]] end os.exit() --76' } })).status).toBe(200);
  });

  it('tests several patterns on one value, joined or (with group references) each alone', async () => {
    const ua = (value: string, action = 'deny') => ({ conditions: [{ field: 'userAgent', operator: 'contains', value, regex: true }], action });
    await onShop([ua('^curl/'), ua('(?i)wget'), ua('python-requests/\\d'), { conditions: [{ field: 'userAgent', operator: 'notContains', value: '^Mozilla', regex: true }, { field: 'uri', operator: 'eq', value: '/m' }], action: 'drop' }]);
    for (const agent of ['curl/8.0', 'Wget/1.21', 'WGET', 'python-requests/2.31']) expect((await req({ headers: { 'user-agent': agent } })).status).toBe(929);
    expect((await req({ headers: { 'user-agent': 'Mozilla/5.0 curl/8.0 python-requests/x' } })).status).toBe(200);
    expect((await req({ path: '/m', headers: { 'user-agent': 'Opera' } })).dropped).toBe(true);
    expect((await req({ path: '/m', headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
    // A back-reference cannot be joined with other patterns: each pattern then runs alone.
    await onShop([ua('(\\w)\\1{3}'), ua('^bot')]);
    expect((await req({ headers: { 'user-agent': 'xaaaay' } })).status).toBe(929);
    expect((await req({ headers: { 'user-agent': 'bot 1' } })).status).toBe(929);
    expect((await req({ headers: { 'user-agent': 'abab' } })).status).toBe(200);
  });

  it('counts the access frequency of an address within the window', async () => {
    await onShop([{ conditions: [{ field: 'uri', operator: 'eq', value: '/api' }, { field: 'frequency', operator: 'gt', value: '3', seconds: 60 }], action: 'deny' }]);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await req({ path: '/api' })).status);
    expect(statuses).toEqual([200, 200, 200, 929, 929]);
    expect((await req({ path: '/other' })).status).toBe(200);
  });

  it('logs what refused a request: the cause, the rule as <module>:<rule> and the action', async () => {
    const deny = rule({ conditions: [{ field: 'uri', operator: 'eq', value: '/logged-deny' }], action: 'deny' });
    const drop = rule({ conditions: [{ field: 'uri', operator: 'eq', value: '/logged-drop' }], action: 'drop' });
    const moved = rule({ conditions: [{ field: 'uri', operator: 'eq', value: '/logged-moved' }], action: 'redirect302', redirectURL: 'https://example.com/' });
    await push({
      acl: [{ id: 7, domains: ['shop.example.com'], rules: [deny, drop, moved] as never }],
      anticc: [{ id: 41, urlRegex: '^/logged-cc', seconds: 60, times: 1, type: 3 }],
    });
    for (const path of ['/logged-deny', '/logged-drop', '/logged-moved', '/logged-cc', '/logged-cc', '/logged-fine']) await req({ path });
    const line = (uri: string) => loggedLine({ prefix: node.prefix, uri });
    expect(await line('/logged-deny')).toMatchObject({ status: '929', blockCause: 'acl', blockRule: `7:${deny.id}`, blockAction: 'deny' });
    expect(await line('/logged-drop')).toMatchObject({ status: '444', blockCause: 'acl', blockRule: `7:${drop.id}`, blockAction: 'drop' });
    expect(await line('/logged-moved')).toMatchObject({ status: '302', blockCause: 'acl', blockRule: `7:${moved.id}`, blockAction: 'redirect302' });
    expect(await line('/logged-cc')).toMatchObject({ status: '978', blockCause: 'anticc', blockRule: '41', blockAction: 'challenge' });
    expect(await line('/logged-fine')).toMatchObject({ status: '200', blockCause: '', blockRule: '', blockAction: '' });
  });

  it('drop with blacklist closes the connection and blocks the address on that site', async () => {
    await push({}, { acl: [{ domains: ['blog.example.com'], rules: [rule({ conditions: [{ field: 'uri', operator: 'eq', value: '/wp-login.php' }], action: 'dropBlacklist', blockSeconds: 60 })] as never }] });
    expect((await req({ host: 'blog.example.com', path: '/' })).status).toBe(200);
    expect((await req({ host: 'blog.example.com', path: '/wp-login.php' })).dropped).toBe(true);
    expect((await req({ host: 'blog.example.com', path: '/' })).dropped).toBe(true);
    expect((await req({ path: '/' })).status).toBe(200);
    expect(await loggedLine({ prefix: node.prefix, uri: '/wp-login.php' })).toMatchObject({ blockCause: 'acl', blockAction: 'dropBlacklist' });
  });
});
