import { clientDomainRoutes, defineRoute, domainRoutes, siteRoutes, type RouteDef } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { answerSchemaOf } from './answer';
import { registerRoute } from './route';

const item = z.object({ id: z.number(), status: z.union([z.literal(0), z.literal(1)]), note: z.string().nullable(), limit: z.number().int().min(0).nullable().optional(), tags: z.array(z.string()).default([]) });
const route = <R extends z.ZodType>(name: string, response: R) =>
  defineRoute({ id: `test.${name}`, method: 'GET', path: `test/${name}`, tier: 'user', public: true, summary: name, tag: 'Test', response });
const plain = route('plain', z.object({ data: z.array(item), total: z.number().int() }));
const transformed = route('transformed', z.object({ data: z.string().transform((s) => s.length) }));
const shapes = route('shapes', z.object({ data: z.union([z.object({ a: z.number() }), z.object({ b: z.string() })]) }));

lane('answers written as the response schema says', () => {
  let t: TestApp;
  let answer: unknown;
  beforeAll(async () => {
    t = await startTestApp({}, {
      // public routes: no caller to authenticate, so the handlers read no dependency
      extend: (app) => [plain, transformed, shapes].forEach((def: RouteDef) => registerRoute(app, {} as AppDeps, def, async () => answer as never)),
    });
  });
  afterAll(() => t.close());

  it('compiles a serializer for a plain schema, and leaves transforms and unions of shapes to zod', () => {
    expect(answerSchemaOf(plain.response)).toMatchObject({ type: 'object' });
    expect(answerSchemaOf(clientDomainRoutes.domains.response)).toMatchObject({ type: 'object' });
    expect(answerSchemaOf(transformed.response)).toBeNull();
    expect(answerSchemaOf(shapes.response)).toBeNull();
  });

  it('sends only the fields the contract names, with its defaults', async () => {
    answer = { data: [{ id: 1, status: 1, note: null, limit: null, secret: 'kept back' }, { id: 2, status: 0, note: 'n', limit: 3, tags: ['x'] }], total: 2, internal: 5 };
    const r = await call(t, 'GET', 'test/plain');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.body).toEqual({ data: [{ id: 1, status: 1, note: null, limit: null, tags: [] }, { id: 2, status: 0, note: 'n', limit: 3, tags: ['x'] }], total: 2 });
  });

  it('answers a missing or mistyped field as the server fault it is (101002)', async () => {
    answer = { data: [{ id: 1, note: null }], total: 1 };
    expect([(await call(t, 'GET', 'test/plain')).status, (await call(t, 'GET', 'test/plain')).body.code]).toEqual([500, 101002]);
    answer = { data: [{ id: '1', status: 1, note: null }], total: 1 };
    expect((await call(t, 'GET', 'test/plain')).body.code).toBe(101002);
    expect(t.logLines.some((l) => l.includes('answer does not match the contract') && l.includes('test.plain'))).toBe(true);
  });

  it('reads through zod what a serializer would not write as zod does', async () => {
    answer = { data: 'four', extra: true };
    expect((await call(t, 'GET', 'test/transformed')).body).toEqual({ data: 4 });
    answer = { data: { b: 'x', c: 1 } };
    expect((await call(t, 'GET', 'test/shapes')).body).toEqual({ data: { b: 'x' } });
  });
});

lane("the console's lists through their compiled serializers", () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await call(t, 'POST', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] } });
    await call(t, 'POST', `user/site/${f.b.site}/domains`, { token: f.tokens.userB, body: { domains: 'other.example.org', upstreams: [{ host: '198.51.100.8' }] } });
  });
  afterAll(() => t.close());

  it("answers each tenant its own rows, every field the contract names, and refuses another tenant's site", async () => {
    for (const def of [clientDomainRoutes.domains, domainRoutes.domains, siteRoutes.userSites]) expect(answerSchemaOf(def.response), def.id).not.toBeNull();
    const mine = await call(t, 'GET', 'client/domains', { token: f.tokens.clientA });
    expect(mine.body).toEqual({ total: 1, data: [expect.objectContaining({ name: 'shop.example.com', siteID: f.a.site, siteName: 'site-a', userEmail: 'user-a@example.com', forceSSL: false, tags: [] })] });
    expect(Object.keys(mine.body.data[0]).sort()).toEqual(Object.keys(clientDomainRoutes.domains.response.shape.data.element.shape).sort());
    expect((await call(t, 'GET', 'client/domains', { token: f.tokens.clientB })).body.data.map((d: { name: string }) => d.name)).toEqual(['other.example.org']);
    const site = await call(t, 'GET', `user/site/${f.a.site}/domains`, { token: f.tokens.userA });
    expect(site.body.data[0]).toMatchObject({ name: 'shop.example.com', upstreams: [expect.objectContaining({ host: '198.51.100.7', port: 80 })], portMap: { enabled: false, rules: [] } });
    const refused = await call(t, 'GET', `user/site/${f.b.site}/domains`, { token: f.tokens.userA });
    expect([refused.status, refused.body.code]).toEqual([404, 101003]);
    expect((await call(t, 'GET', 'user/sites', { token: f.tokens.userB })).body.data.map((s: { id: number }) => s.id)).toEqual([f.b.site]);
  });
});
