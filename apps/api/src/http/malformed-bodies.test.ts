import type { RouteDef } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditRowsOf, lane, makeTenants, startTestApp, type TestApp } from '../../test/harness';
import { served, toUrl } from './route';

const BODIES = ['{"ids":', '['.repeat(5000) + ']'.repeat(5000), '{"ids":[[1]],"id":true,"name":"a\\u0000b"}'];

lane('malformed bodies to every write call', () => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof makeTenants>>['tokens'];
  beforeAll(async () => {
    t = await startTestApp();
    tokens = (await makeTenants(t)).tokens;
  });
  afterAll(() => t.close());

  const tokenFor = (def: RouteDef) => (def.public ? undefined : { admin: tokens.admin, client: tokens.clientA, user: tokens.userA, any: tokens.userA }[def.tier]);

  it('answers each without a 5xx and writes each to the operation log', async () => {
    const writes = (served.get(t.app) ?? []).filter((d) => d.method !== 'GET' && !d.readOnly);
    expect(writes.length).toBeGreaterThan(150);
    const failures: string[] = [];
    let n = 0;
    for (const def of writes) {
      for (const payload of BODIES) {
        const reqId = `malformed-${n++}`;
        const token = tokenFor(def);
        const res = await t.app.inject({
          method: def.method,
          url: toUrl(def.path).replace(/:\w+/g, '1'),
          headers: { 'content-type': 'application/json', 'x-request-id': reqId, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          payload,
        });
        if (res.statusCode >= 500) failures.push(`${def.id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        const anonymous = (def.public && def.tier === 'any') || def.auth === 'node';
        if (!anonymous && (await auditRowsOf(t, reqId)).length !== 1) failures.push(`${def.id}: no operation-log row ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
