import { ERRORS } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';

lane('API core', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers health with the database in use', async () => {
    const r = await call(t, 'GET', 'health');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'ok', database: process.env.EK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite' });
  });

  it('answers an unknown path with 101004 and HTTP 404', async () => {
    const r = await call(t, 'GET', 'no/such/call');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 101004, message: ERRORS.PathInvalid.en_US, extra: 'GET /api/v1/no/such/call' });
    expect((await call(t, 'DELETE', 'user/login')).body.code).toBe(101004);
  });

  it('answers malformed JSON and wrong types with 101003', async () => {
    const malformed = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { 'content-type': 'application/json' }, payload: '{"account":' });
    expect([malformed.statusCode, malformed.json().code]).toEqual([400, 101003]);
    const wrongType = await call(t, 'POST', 'user/login', { body: { account: 'a@example.com', password: 42 } });
    expect(wrongType.body.extra.fields).toEqual([{ in: 'body', field: 'password', message: expect.any(String) }]);
  });

  it('answers in the language the caller asks for', async () => {
    const tw = await call(t, 'GET', 'nope', { headers: { 'accept-language': 'zh-TW,zh;q=0.9' } });
    const cn = await call(t, 'GET', 'nope', { headers: { 'accept-language': 'zh-CN' } });
    expect(tw.body.message).toBe(ERRORS.PathInvalid.zh_TW);
    expect(cn.body.message).toBe(ERRORS.PathInvalid.zh_CN);
  });

  it('answers an unexpected failure with 101002 and nothing of its internals', async () => {
    const boom = await startTestApp({}, {
      extend: (app) =>
        app.get('/api/v1/test/boom', async () => {
          throw new Error('connection string postgres://secret@db');
        }),
    });
    const r = await call(boom, 'GET', 'test/boom');
    await boom.close();
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 101002, message: ERRORS.Unknown.en_US, extra: null });
    expect(JSON.stringify(r.body)).not.toContain('secret');
  });

  it('tags every answer and log line of a request with its request id', async () => {
    const r = await call(t, 'GET', 'health', { headers: { 'x-request-id': 'trace-1234abcd' } });
    expect(r.headers['x-request-id']).toBe('trace-1234abcd');
    expect(t.logLines.some((l) => l.includes('"reqId":"trace-1234abcd"'))).toBe(true);
    const generated = await call(t, 'GET', 'health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes the OpenAPI document and a browsable page', async () => {
    const doc = await call(t, 'GET', '../docs/json');
    expect(doc.body).toMatchObject({ openapi: '3.0.3', info: { title: 'EdgeKeep API' } });
    const paths = (doc.body as unknown as { paths: Record<string, Record<string, { security: unknown[]; requestBody: { content: object } }>> }).paths;
    expect(paths['/api/v1/client/login'].post.security).toEqual([]);
    expect(paths['/api/v1/client/account/self'].get.security).toEqual([{ bearer: [] }]);
    expect(paths['/agent/v1/state'].get.security).toEqual([{ node: [] }]);
    expect(paths['/agent/v1/enroll'].post.security).toEqual([]);
    expect(Object.keys(paths['/agent/v1/logs'].post.requestBody.content)).toEqual(['application/x-ndjson']);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.headers['content-type']).toContain('text/html');
    const asset = await t.app.inject({ method: 'GET', url: '/api/docs/assets/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
  });

  it('answers the default branding without a token', async () => {
    const r = await call(t, 'GET', 'client/logo');
    expect(r.body.data).toEqual({ title: 'EdgeKeep', copyright: expect.stringContaining('EdgeKeep'), l4AttackAnalysis: false });
  });
});
