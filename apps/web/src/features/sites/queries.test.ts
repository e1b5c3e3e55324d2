import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeTokens } from '../../api/cookies';
import { domainCalls } from '../domains/queries';
import { siteCalls, siteOptionCalls } from './queries';

type Seen = { url: string; method: string; auth: string | null; body: unknown };
const seen: Seen[] = [];
let answer: unknown;

beforeEach(() => {
  seen.length = 0;
  writeTokens('user', { accessToken: 'U', refreshToken: 'R', tokenType: 'Bearer' });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, method: init.method ?? 'GET', auth: new Headers(init.headers).get('authorization'), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    return new Response(typeof answer === 'string' ? answer : JSON.stringify(answer), { status: 200 });
  });
  vi.useFakeTimers({ toFake: ['setTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Runs a call past the pause that follows every call. */
async function run<T>(call: () => Promise<T>) {
  const pending = call();
  await vi.runAllTimersAsync();
  return pending;
}

const page = { id: 3, status: 403, type: 'content', body: '<p>gone</p>', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const ports = { httpPorts: [{ port: 80, enabled: true }, { port: 8080, enabled: true }], httpsPorts: [{ port: 443, enabled: true }] };

describe("the site screens' calls", () => {
  it('share and stop sharing sites through the two routes of user/site/users', async () => {
    answer = { data: { ok: true } };
    await run(() => siteCalls.share({ siteIDs: [1], userIDs: [7], on: true }));
    await run(() => siteCalls.share({ siteIDs: [1], userIDs: [7], on: false }));
    expect(seen.map((s) => [s.method, s.url, s.auth, s.body])).toEqual([
      ['PATCH', '/api/v1/user/site/users', 'Bearer U', { siteIDs: [1], userIDs: [7] }],
      ['DELETE', '/api/v1/user/site/users', 'Bearer U', { siteIDs: [1], userIDs: [7] }],
    ]);
  });

  it('create an error page without an id and change the one whose id is given, answering the page', async () => {
    answer = { data: page };
    const created = await run(() => siteCalls.saveErrorPage(5, { status: 403, type: 'content', body: '<p>no</p>' }));
    await run(() => siteCalls.saveErrorPage(5, { status: 403, type: 'content', body: '<p>no</p>' }, 3));
    expect(created).toMatchObject({ id: 3, status: 403 });
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/v1/user/site/5/errorPage', { status: 403, type: 'content', body: '<p>no</p>' }],
      ['PUT', '/api/v1/user/site/5/errorPage', { status: 403, type: 'content', body: '<p>no</p>', id: 3 }],
    ]);
  });

  it('open and close ports with POST and DELETE, sending no `on` flag', async () => {
    answer = { data: ports };
    expect(await run(() => siteOptionCalls.setPorts(5, { type: 'http', ports: [8080], on: true }))).toEqual(ports);
    await run(() => siteOptionCalls.setPorts(5, { type: 'http', ports: [8080], on: false }));
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/v1/user/site/5/setting/ports', { type: 'http', ports: [8080] }],
      ['DELETE', '/api/v1/user/site/5/setting/ports', { type: 'http', ports: [8080] }],
    ]);
  });

  it('export domains as the text the route answers, and list domains with the query in the URL', async () => {
    answer = 'a.example.com 1.2.3.4:80\n';
    expect(await run(() => domainCalls.exportText(5, [1, 2]))).toBe('a.example.com 1.2.3.4:80\n');
    answer = { data: [], total: 0 };
    expect(await run(() => siteCalls.domains(5, { page: 2, pageSize: 25 }))).toEqual({ data: [], total: 0 });
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/v1/user/site/5/domains/export', { ids: [1, 2] }],
      ['GET', '/api/v1/user/site/5/domains?page=2&pageSize=25', undefined],
    ]);
  });

  it('refuse an answer that is not the contract shape', async () => {
    answer = { data: { httpPorts: 'none' } };
    const refused = expect(siteOptionCalls.zonePorts(5)).rejects.toThrow('expected array');
    await vi.runAllTimersAsync();
    await refused;
  });
});
