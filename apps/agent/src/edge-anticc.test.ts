import { runInNewContext } from 'node:vm';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushData } from './control/client';
import { luaData } from './render';
import { send, type Reply } from './test/http-client';
import { nginxForTests, startEdge } from './test/nginx-harness';
import { freePort, startOrigin } from './test/servers';

const nginx = await nginxForTests('edge tests need nginx with the Lua module');

const VERIFY = '/.edgekeep/cc/verify';
/** The page's proof, as its script computes it: 32-bit FNV-1a of nonce + n, a multiple of 4096. */
const fnv = (s: string) => {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
};
const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const passCookie = (r: Reply) => String(r.headers['set-cookie']?.[0] ?? '').split(';')[0];

describe.skipIf(!nginx.ok)('anti-CC challenges on real nginx', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let node: Awaited<ReturnType<typeof startEdge>>;
  let port: number;

  const state = (data: edge.DesiredStateInput['data'] = {}) =>
    edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [port], httpsPorts: [port + 1], nginx: { workerProcesses: 1 } },
        sites: [{ id: 1, name: 'shop', domains: [{ id: 11, name: 'shop.example.com', origins: [{ host: '127.0.0.1', port: origin.port }] }] }],
      },
      data,
    });
  const req = (o: { path?: string; method?: string; headers?: Record<string, string>; body?: string } = {}) => send({ port, host: 'shop.example.com', ...o });
  /** Sends `times` requests that pass, then the one over the threshold. */
  const overThreshold = async (path: string, times: number) => {
    for (let i = 0; i < times; i++) expect((await req({ path })).status).toBe(200);
    return req({ path, headers: { 'accept-language': 'en' } });
  };

  beforeAll(async () => {
    origin = await startOrigin({ name: 'shop' });
    port = await freePort();
    node = await startEdge({ state: state(), controlPort: await freePort() });
    const anticc = ([1, 2, 3, 4, 5] as const).map((type) => ({ id: type, urlRegex: `^/mode${type}`, seconds: 60, times: 2, type }));
    await pushData({ control: node.control, data: luaData({ state: state({ sites: [{ siteId: 1, waf: { acl: [], anticc } }] }) }) });
  });
  afterAll(async () => {
    await node?.stop();
    await origin?.close();
  });

  it('five-second shield: over the threshold the page carries a proof script; the computed proof lets the browser through', async () => {
    const page = await overThreshold('/mode1/a?x=1', 2);
    expect(page.status).toBe(978);
    expect(page.body).toContain('five seconds');
    const nonce = /var n="([0-9a-f]+)",t="([^"]+)"/.exec(page.body);
    expect(nonce).not.toBeNull();
    const [, n, t] = nonce as RegExpExecArray;
    const wrong = await req({ path: `${VERIFY}?m=1&t=${encodeURIComponent(t)}&a=${(() => { let i = 0; while (fnv(n + i) % 4096 === 0) i++; return i; })()}&r=/mode1/a` });
    expect(wrong.status).toBe(978);
    let i = 0;
    while (fnv(n + i) % 4096 !== 0) i++;
    const ok = await req({ path: `${VERIFY}?m=1&t=${encodeURIComponent(t)}&a=${i}&r=${encodeURIComponent('/mode1/a?x=1')}` });
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toMatch(/\/mode1\/a\?x=1$/);
    const cookie = passCookie(ok);
    expect(cookie).toMatch(/^ek_cc_1=\d+\./);
    const through = await req({ path: '/mode1/a?x=1', headers: { cookie } });
    expect(through.status).toBe(200);
    expect(JSON.parse(through.body)).toMatchObject({ url: '/mode1/a?x=1' });
    expect((await req({ path: '/mode1/a', headers: { cookie: `${cookie.slice(0, -2)}xx` } })).status).toBe(978);
  });

  it("five-second shield page: its own script, run as a browser would, reaches the verify address that lets it through", async () => {
    const page = await req({ path: '/mode1/b', headers: { 'accept-language': 'zh-CN' } });
    expect(page.status).toBe(978);
    expect(page.body).toContain('本网站正在确认您使用的是真实浏览器');
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1] as string;
    let target = '';
    runInNewContext(script, { Date, Math, encodeURIComponent, location: { replace: (u: string) => (target = u) }, setTimeout: (f: () => void) => f() });
    expect(target).toMatch(/^\/\.edgekeep\/cc\/verify\?m=1&t=.+&a=\d+&r=%2Fmode1%2Fb$/);
    const ok = await req({ path: target });
    expect(ok.status).toBe(302);
    expect((await req({ path: '/mode1/b', headers: { cookie: passCookie(ok) } })).status).toBe(200);
  });

  it('code: the typed answer of the text question passes, a wrong one gets the page again', async () => {
    const page = await overThreshold('/mode2', 2);
    expect(page.status).toBe(978);
    const [, a, b] = /<strong id="q">(\d+) \+ (\d+) = \?<\/strong>/.exec(page.body) as RegExpExecArray;
    const fields = { m: hidden(page.body, 'm'), t: hidden(page.body, 't'), r: hidden(page.body, 'r') };
    const wrong = await req({ path: VERIFY, method: 'POST', headers: { 'accept-language': 'en-GB' }, body: form({ ...fields, a: String(Number(a) + Number(b) + 1) }) });
    expect(wrong.status).toBe(978);
    expect(wrong.body).toContain('That was not right');
    const ok = await req({ path: VERIFY, method: 'POST', body: form({ ...fields, a: String(Number(a) + Number(b)) }) });
    expect(ok.status).toBe(302);
    expect((await req({ path: '/mode2', headers: { cookie: passCookie(ok) } })).status).toBe(200);
  });

  it('click to verify: posting the button passes', async () => {
    const page = await overThreshold('/mode3', 2);
    expect(page.status).toBe(978);
    expect(page.body).toContain('Click the button');
    const ok = await req({ path: VERIFY, method: 'POST', body: form({ m: '3', t: hidden(page.body, 't'), r: hidden(page.body, 'r'), a: 'click' }) });
    expect(ok.status).toBe(302);
    expect((await req({ path: '/mode3', headers: { cookie: passCookie(ok) } })).status).toBe(200);
  });

  it('redirect: a 302 round trip through the verify address sets the cookie', async () => {
    const first = await overThreshold('/mode4/x', 2);
    expect(first.status).toBe(302);
    const back = await req({ path: String(first.headers.location) });
    expect(back.status).toBe(302);
    expect(back.headers.location).toMatch(/\/mode4\/x$/);
    expect((await req({ path: '/mode4/x', headers: { cookie: passCookie(back) } })).status).toBe(200);
  });

  it('slider: the end position is checked on the server', async () => {
    const page = await overThreshold('/mode5', 2);
    expect(page.status).toBe(978);
    const target = Number(/data-target="(\d+)"/.exec(page.body)?.[1]);
    const fields = { m: '5', t: hidden(page.body, 't'), r: hidden(page.body, 'r') };
    expect((await req({ path: VERIFY, method: 'POST', body: form({ ...fields, a: String(target > 50 ? target - 10 : target + 10) }) })).status).toBe(978);
    const ok = await req({ path: VERIFY, method: 'POST', body: form({ ...fields, a: String(target + 2) }) });
    expect(ok.status).toBe(302);
  });

  it('refuses a token of another mode, and keeps the return address on the site', async () => {
    const page = await overThreshold('/mode3/y', 0);
    const t = hidden(page.body, 't');
    expect((await req({ path: VERIFY, method: 'POST', body: form({ m: '2', t, r: '/', a: 'click' }) })).status).toBe(978);
    const ok = await req({ path: VERIFY, method: 'POST', body: form({ m: '3', t, r: '//evil.example.com/', a: 'click' }) });
    expect(ok.headers.location).toMatch(/^(http:\/\/shop\.example\.com(:\d+)?)?\/$/);
  });

  it('blocks an address that fails the challenge repeatedly', async () => {
    const page = await overThreshold('/mode2/z', 0);
    const fields = { m: '2', t: hidden(page.body, 't'), r: '/', a: '-1' };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await req({ path: VERIFY, method: 'POST', body: form(fields) }));
    expect(answers.slice(0, 2).map((r) => r.status)).toEqual([978, 978]);
    expect(answers.some((r) => r.dropped)).toBe(true);
    expect((await req({ path: '/anything' })).dropped).toBe(true);
  });
});
