import { pbkdf2Sync } from 'node:crypto';
import { edge } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNodeState } from '../../agent-gateway/state';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('basic auth: groups, users and rules', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const as = (method: string, path: string, body?: unknown, token = f.tokens.userA) => call(t, method, path, { token, body });
  const auth = (path: string) => `user/site/${f.a.site}/auth/${path}`;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await as('POST', `user/site/${f.a.site}/domains`, { domains: 'shop.example.com', upstreams: [{ host: '198.51.100.7' }] });
  });
  afterAll(() => t.close());

  it('keeps users with hashed passwords that are never answered, and protects paths on every domain', async () => {
    expect((await as('GET', auth('settingExists'))).body.data).toEqual({ exists: false });
    const g = (await as('POST', auth('group'), { name: 'staff' })).body.data;
    expect(g).toMatchObject({ name: 'staff', users: 0, rules: 0 });
    expect((await as('POST', auth('group'), { name: 'staff' })).body.code).toBe(101025);
    const u = await as('POST', auth(`group/${g.id}/basicAuth`), { user: 'ops', password: 's3cret-pass' });
    expect(u.body.data).toEqual({ id: expect.any(Number), user: 'ops', createdAt: expect.any(String) });
    expect((await as('POST', auth(`group/${g.id}/basicAuth`), { user: 'ops', password: 'another-pass' })).body.code).toBe(101025);
    expect((await as('POST', auth(`group/${g.id}/basicAuth`), { user: 'a:b', password: 'long-enough' })).body.code).toBe(101003);
    expect((await as('POST', auth(`group/${g.id}/basicAuth`), { user: 'dev', password: 'short' })).body.code).toBe(101003);
    const users = await as('GET', auth(`group/${g.id}/basicAuths`));
    expect(users.body.data).toEqual([{ id: u.body.data.id, user: 'ops', createdAt: expect.any(String) }]);
    expect(JSON.stringify(users.body)).not.toContain('s3cret');

    for (const bad of [{ match: 'prefix', pattern: 'admin', groupIDs: [g.id] }, { match: 'regex', pattern: '(a+)+', groupIDs: [g.id] }, { match: 'prefix', pattern: '/x', groupIDs: [] }]) {
      expect((await as('POST', auth('rule'), bad)).body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await as('POST', auth('rule'), { match: 'prefix', pattern: '/x', groupIDs: [999999] })).status).toBe(404);
    const rule = (await as('POST', auth('rule'), { match: 'prefix', pattern: '/admin', realm: 'Staff', groupIDs: [g.id] })).body.data;
    expect(rule).toMatchObject({ pattern: '/admin', realm: 'Staff', groups: [{ id: g.id, name: 'staff' }] });
    expect((await as('GET', auth('settingExists'))).body.data).toEqual({ exists: true });
    expect((await as('GET', auth('metaGroups?type=basic'))).body.data).toEqual([{ id: g.id, name: 'staff' }]);
    expect((await as('GET', auth('rules'))).body.total).toBe(1);

    const [d] = (await buildNodeState(t.deps, f.a.node)).data.domainModules;
    const [edgeRule] = d.basicAuth;
    expect(edgeRule).toMatchObject({ match: 'prefix', pattern: '/admin', realm: 'Staff' });
    expect(edgeRule.users[0].hash).toBe(pbkdf2Sync('s3cret-pass', Buffer.from(edgeRule.users[0].salt, 'hex'), edge.BASIC_AUTH_ROUNDS, 20, 'sha1').toString('hex'));

    await as('PUT', auth(`group/${g.id}/basicAuth`), { id: u.body.data.id, user: 'ops2' });
    const after = (await buildNodeState(t.deps, f.a.node)).data.domainModules[0].basicAuth[0].users[0];
    expect(after).toMatchObject({ user: 'ops2', hash: edgeRule.users[0].hash });
    expect((await as('DELETE', auth('groups'), { ids: [g.id] })).body.code).toBe(101003);
    await as('PUT', auth('rule'), { id: rule.id, match: 'regex', pattern: '^/(admin|ops)/', groupIDs: [g.id] });
    expect((await as('GET', auth('groups'))).body.data[0]).toMatchObject({ users: 1, rules: 1 });
    expect((await as('DELETE', auth('rules'), { ids: [rule.id] })).status).toBe(200);
    expect((await buildNodeState(t.deps, f.a.node)).data.domainModules).toEqual([]);
    expect((await as('DELETE', auth(`group/${g.id}/basicAuths`), { ids: [u.body.data.id] })).status).toBe(200);
    expect((await as('PUT', auth('group'), { id: g.id, name: 'team' })).body.data.name).toBe('team');
    expect((await as('DELETE', auth('groups'), { ids: [g.id] })).status).toBe(200);
  });

  it("refuses every call on another user's site, exactly as a missing one", async () => {
    const g = (await as('POST', auth('group'), { name: 'mine' })).body.data;
    const u = (await as('POST', auth(`group/${g.id}/basicAuth`), { user: 'me', password: 'long-enough' })).body.data;
    const r = (await as('POST', auth('rule'), { match: 'prefix', pattern: '/p', groupIDs: [g.id] })).body.data;
    const B = f.tokens.userB;
    const missing = (await as('GET', 'user/site/999999/auth/groups', undefined, B)).body;
    const calls: [string, string, unknown?][] = [
      ['GET', auth('settingExists')],
      ['GET', auth('metaGroups')],
      ['GET', auth('rules')],
      ['POST', auth('rule'), { match: 'prefix', pattern: '/q', groupIDs: [g.id] }],
      ['PUT', auth('rule'), { id: r.id, match: 'prefix', pattern: '/q', groupIDs: [g.id] }],
      ['DELETE', auth('rules'), { ids: [r.id] }],
      ['GET', auth('groups')],
      ['POST', auth('group'), { name: 'x' }],
      ['PUT', auth('group'), { id: g.id, name: 'x' }],
      ['DELETE', auth('groups'), { ids: [g.id] }],
      ['GET', auth(`group/${g.id}/basicAuths`)],
      ['POST', auth(`group/${g.id}/basicAuth`), { user: 'x', password: 'long-enough' }],
      ['PUT', auth(`group/${g.id}/basicAuth`), { id: u.id, user: 'x' }],
      ['DELETE', auth(`group/${g.id}/basicAuths`), { ids: [u.id] }],
    ];
    for (const [method, path, body] of calls) expect((await as(method, path, body, B)).body, `${method} ${path}`).toEqual(missing);
    expect((await as('GET', `user/site/${f.b.site}/auth/group/${g.id}/basicAuths`, undefined, B)).status).toBe(404);
  });
});
