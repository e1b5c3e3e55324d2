import { authRoutes } from '@edgekeep/contract/routes/auth';
import { logRoutes, statisticsRoutes, userDomainPickerRoutes } from '@edgekeep/contract/routes/statistics';
import { systemRoutes } from '@edgekeep/contract/routes/system';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeTokens } from './cookies';
import { callRoute, dataOf, routePath } from './route-client';

type Seen = { url: string; method: string; auth: string | null; body: unknown };
const seen: Seen[] = [];
let answer: { status: number; body: string };

beforeEach(() => {
  seen.length = 0;
  writeTokens('user', { accessToken: 'U', refreshToken: 'R', tokenType: 'Bearer' });
  writeTokens('client', { accessToken: 'C', refreshToken: 'R', tokenType: 'Bearer' });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, method: init.method ?? 'GET', auth: new Headers(init.headers).get('authorization'), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    return new Response(answer.body, { status: answer.status });
  });
});
afterEach(() => vi.unstubAllGlobals());

const exportItem = {
  id: 7, type: 'access', status: 'completed', startTime: '2025-01-01T00:00:00Z', endTime: '2025-01-01T01:00:00Z', createdAt: '2025-01-01T01:00:00Z',
  finishedAt: '2025-01-01T01:01:00Z', rows: 3, totalRows: 3, progress: 100, size: 120, fileName: 'access.csv.gz', error: null,
};

describe('the route client', () => {
  it('fills the path parameters, uses the route method and signs with the route tier', async () => {
    answer = { status: 200, body: JSON.stringify({ data: exportItem }) };
    const item = await callRoute(logRoutes.client.get, { params: { ID: 7 } });
    expect(item.data.fileName).toBe('access.csv.gz');
    expect(seen[0]).toMatchObject({ url: '/api/v1/client/log/export/7', method: 'GET', auth: 'Bearer C' });
  });

  it('sends the query and body, and parses the answer with the response schema', async () => {
    answer = { status: 200, body: JSON.stringify({ window: { startTime: 'a', endTime: 'b', reportInterval: 5, timeZone: 'UTC' }, data: [], total: 0, extra: 1 }) };
    const list = await callRoute(statisticsRoutes.user.list, { query: { page: 2, sortBy: 'traffic' }, body: { groupBy: 'url', timeInterval: 'oneDay' } });
    expect(list).toEqual({ window: { startTime: 'a', endTime: 'b', reportInterval: 5, timeZone: 'UTC' }, data: [], total: 0 });
    expect(seen[0]).toMatchObject({ url: '/api/v1/user/statistics/list?page=2&sortBy=traffic', method: 'POST', auth: 'Bearer U', body: { groupBy: 'url', timeInterval: 'oneDay' } });
  });

  it('answers text where the route answers text', async () => {
    answer = { status: 200, body: 'key,reqCount\nexample.com,3\n' };
    expect(await callRoute(statisticsRoutes.client.export, { body: {} })).toBe('key,reqCount\nexample.com,3\n');
    expect(seen[0]).toMatchObject({ url: '/api/v1/client/statistics/list/export', method: 'POST', auth: 'Bearer C' });
  });

  it('sends a DELETE with its body', async () => {
    answer = { status: 200, body: JSON.stringify({ data: { ok: true } }) };
    await callRoute(logRoutes.user.remove, { body: { ids: [1, 2] } });
    expect(seen[0]).toMatchObject({ url: '/api/v1/user/log/exports', method: 'DELETE', body: { ids: [1, 2] } });
  });

  it('signs no public call', async () => {
    answer = { status: 200, body: JSON.stringify({ status: 'ok' }) };
    await callRoute(systemRoutes.health).catch(() => undefined);
    expect(seen[0].auth).toBeNull();
  });

  it('signs a public call only with the session the caller names', async () => {
    answer = { status: 200, body: JSON.stringify({ data: { title: 'Edge', copyright: '©' } }) };
    expect(await dataOf(callRoute(authRoutes.logo.user, { delayMs: 0 }))).toEqual({ title: 'Edge', copyright: '©' });
    await callRoute(authRoutes.logo.user, { delayMs: 0, tier: 'user' });
    expect(seen.map((s) => [s.url, s.auth])).toEqual([
      ['/api/v1/user/logo', null],
      ['/api/v1/user/logo', 'Bearer U'],
    ]);
  });

  it('refuses a path whose parameter is missing', () => {
    expect(() => routePath({ path: 'user/log/export/file/{ID}' }, {})).toThrow('needs ID');
    expect(routePath(userDomainPickerRoutes.meta, undefined)).toBe('user/domains/meta');
  });
});
