import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callRaw, fileNameOf, type CallOptions } from './client';
import { readTokens, writeTokens } from './cookies';
import { ApiFailure } from './failure';

type Handler = (req: { url: string; method: string; auth: string | null; body: unknown }) => { status: number; body: unknown };
let handler: Handler;
const seen: { url: string; method: string; auth: string | null }[] = [];

beforeEach(() => {
  seen.length = 0;
  document.cookie.split('; ').forEach((c) => (document.cookie = `${c.split('=')[0]}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`));
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const auth = new Headers(init.headers).get('authorization');
    const req = { url, method: init.method ?? 'GET', auth, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body };
    seen.push(req);
    await new Promise((r) => setTimeout(r, 5));
    const { status, body } = handler(req);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  });
});
afterEach(() => vi.unstubAllGlobals());

/** The data of a `{ data }` answer. */
const call = async <T,>(path: string, opts: CallOptions = {}) => ((await (await callRaw(path, opts)).json()) as { data: T }).data;

/** A server whose access tokens are `at-N`; only the newest is valid, refresh token `rt-N` works once. */
function tokenServer() {
  let generation = 1;
  let refreshes = 0;
  handler = ({ url, method, auth, body }) => {
    if (method === 'PATCH' && url === '/api/v1/client') {
      refreshes += 1;
      if ((body as { refreshToken: string }).refreshToken !== `rt-${generation}`) return { status: 401, body: { code: 101016, message: 'refresh failed' } };
      generation += 1;
      return { status: 200, body: { data: { accessToken: `at-${generation}`, refreshToken: `rt-${generation}`, tokenType: 'Bearer' } } };
    }
    if (auth !== `Bearer at-${generation}`) return { status: 401, body: { code: 101014, message: 'Token expired' } };
    return { status: 200, body: { data: { url } } };
  };
  return { refreshes: () => refreshes };
}

describe('API client', () => {
  it('calls /api/v1 with the tier cookies as the Authorization header and answers data', async () => {
    writeTokens('admin', { accessToken: 'A', refreshToken: 'R', tokenType: 'Bearer' });
    handler = () => ({ status: 200, body: { data: { ok: 1 } } });
    expect(await call('admin/account/self', { tier: 'admin', delayMs: 0, query: { page: 1, ids: [1, 2], skip: undefined } })).toEqual({ ok: 1 });
    expect(seen[0]).toMatchObject({ url: '/api/v1/admin/account/self?page=1&ids=1&ids=2', auth: 'Bearer A' });
  });

  it('sends no Authorization header on calls without a tier', async () => {
    handler = () => ({ status: 200, body: { data: {} } });
    await call('user/login', { method: 'POST', body: { account: 'a@b.c', password: 'x' }, delayMs: 0 });
    expect(seen[0].auth).toBeNull();
  });

  it('refreshes once for many calls that meet an expired token, then retries them all', async () => {
    const server = tokenServer();
    writeTokens('client', { accessToken: 'at-0', refreshToken: 'rt-1', tokenType: 'Bearer' });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((p) => call<{ url: string }>(`client/${p}`, { tier: 'client', delayMs: 0 })));
    expect(answers.map((a) => a.url)).toEqual(['/api/v1/client/a', '/api/v1/client/b', '/api/v1/client/c', '/api/v1/client/d']);
    expect(server.refreshes()).toBe(1);
    expect(readTokens('client')).toEqual({ accessToken: 'at-2', refreshToken: 'rt-2', tokenType: 'Bearer' });
  });

  it('clears the session and fails with 101016 when the refresh fails', async () => {
    tokenServer();
    writeTokens('client', { accessToken: 'at-0', refreshToken: 'stale', tokenType: 'Bearer' });
    const err = await call('client/a', { tier: 'client', delayMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiFailure);
    expect((err as ApiFailure).code).toBe(101016);
    expect((err as ApiFailure).tier).toBe('client');
    expect(readTokens('client')).toBeUndefined();
  });

  it('turns an error body into a failure with code, message and extra', async () => {
    handler = () => ({ status: 400, body: { code: 101003, message: 'Parameter error', extra: { fields: [{ field: 'email' }] } } });
    const err = (await call('user/login', { method: 'POST', body: {}, delayMs: 0 }).catch((e: unknown) => e)) as ApiFailure;
    expect([err.status, err.code, err.message, err.extra]).toEqual([400, 101003, 'Parameter error', { fields: [{ field: 'email' }] }]);
  });

  it('a failure without an error body has no code', async () => {
    handler = () => ({ status: 502, body: '<html>bad gateway</html>' });
    const err = (await call('user/logo', { delayMs: 0 }).catch((e: unknown) => e)) as ApiFailure;
    expect(err.code).toBeUndefined();
  });

  it('answers the raw response of a successful call', async () => {
    handler = () => ({ status: 200, body: 'domain,traffic\nexample.com,1' });
    const res = await callRaw('user/site/1/domains/export', { method: 'POST', delayMs: 0 });
    expect([res.status, await res.text()]).toEqual([200, 'domain,traffic\nexample.com,1']);
  });

  it('waits the default 200 ms after a call', async () => {
    handler = () => ({ status: 200, body: { data: null } });
    const started = performance.now();
    await call('user/logo');
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('names downloads from Content-Disposition', () => {
    const res = (cd: string) => new Response('', { headers: { 'content-disposition': cd } });
    expect(fileNameOf(res('attachment; filename="logs-2026.csv"'), 'x')).toBe('logs-2026.csv');
    expect(fileNameOf(res("attachment; filename=a.csv; filename*=UTF-8''%E6%97%A5%E8%AA%8C.csv"), 'x')).toBe('日誌.csv');
    expect(fileNameOf(new Response(''), 'fallback.csv')).toBe('fallback.csv');
  });
});
