import { ERRORS } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redact } from '../modules/audit/recorder';
import { auditRowsOf, call, lane, makeTenants, startTestApp, type TestApp } from '../../test/harness';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

lane('request bounds and the envelope of every refusal', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
  });
  afterAll(() => t.close());

  it('refuses a deeply nested body with 101003 before any handler, and logs the call', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client/license/registration',
      headers: { authorization: `Bearer ${f.tokens.clientA}`, 'content-type': 'application/json', 'x-request-id': 'nested-5000-a' },
      payload: nested(5000),
    });
    expect([r.statusCode, r.json().code]).toEqual([400, 101003]);
    const rows = await auditRowsOf(t, 'nested-5000-a');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account_name: 'client-a@example.com', status: 400, code: 101003, url: '/api/v1/client/license/registration' });
  });

  it('takes nesting up to the bound, and the recorder cuts what it keeps', async () => {
    const r = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/account/self',
      headers: { authorization: `Bearer ${f.tokens.userA}`, 'content-type': 'application/json', 'x-request-id': 'nested-30-a' },
      payload: `{"name":${nested(30)}}`,
    });
    expect([r.statusCode, r.json().code]).toEqual([400, 101003]);
    expect((await auditRowsOf(t, 'nested-30-a'))[0].body).toContain('[deeper]');
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => redact(deep)).not.toThrow();
  });

  it('answers a path parameter over its length in the envelope, echoing nothing', async () => {
    const long = 'x'.repeat(150);
    const r = await call(t, 'GET', `user/site/${long}/domains`, { token: f.tokens.userA });
    expect(r.status).toBe(414);
    expect(r.body).toEqual({ code: 101003, message: ERRORS.Parameter.en_US, extra: { reason: 'a path parameter is too long' } });
    expect(JSON.stringify(r.body)).not.toContain(long);
  });

  it("answers the framework's refusals in the envelope with a catalogue code", async () => {
    const headers = { authorization: `Bearer ${f.tokens.userA}` };
    const media = await t.app.inject({ method: 'PUT', url: '/api/v1/user/account/self', headers: { ...headers, 'content-type': 'text/x-nothing' }, payload: 'x' });
    const large = await t.app.inject({ method: 'PUT', url: '/api/v1/user/account/self', headers: { ...headers, 'content-type': 'application/json' }, payload: `"${'x'.repeat(11 * 1024 * 1024)}"` });
    const malformed = await t.app.inject({ method: 'PUT', url: '/api/v1/user/account/self', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"name":' });
    for (const [res, status] of [[media, 415], [large, 413], [malformed, 400]] as const) {
      expect(res.statusCode).toBe(status);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'extra', 'message']);
      expect(res.json().code).toBe(101003);
      expect(res.body).not.toMatch(/FST_|fastify|position \d/i);
    }
  });

  it('refuses names with NUL or bidirectional overrides', async () => {
    for (const name of ['zone\u0000x', 'zone\u202egpj.exe']) {
      const r = await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name } });
      expect([r.status, r.body.code], JSON.stringify(name)).toEqual([400, 101003]);
    }
  });
});
