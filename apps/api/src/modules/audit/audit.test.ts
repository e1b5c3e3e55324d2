import { afterAll, beforeAll, expect, it } from 'vitest';
import { asPrincipal, call, makeTenants, PASSWORD, lane, startTestApp, type TestApp } from '../../../test/harness';
import { auditRepo } from './repo';

lane('operation log', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    await call(t, 'PUT', 'user/account/self', { token: f.tokens.userA, body: { name: 'renamed' } });
    await call(t, 'PUT', 'user/account/self', { token: f.tokens.userB, body: { name: 'other' } });
    await call(t, 'PATCH', 'user/password', { token: f.tokens.userA, body: { oldPassword: 'wrong password', newPassword: 'new password 1' } });
    await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { email: 'new@example.com', name: 'new', password: PASSWORD } });
    await call(t, 'POST', 'user/login', { body: { account: 'user-a@example.com', password: 'not it' } });
  });
  afterAll(() => t.close());

  it('records successful and refused mutating calls, with secrets removed from bodies', async () => {
    const r = await call(t, 'POST', 'auditLogs', { token: f.tokens.userA, body: { pageSize: 100 } });
    const rows = r.body.data as { url: string; status: number; code: number | null; body: string; method: string; type: string }[];
    const rename = rows.find((x) => x.url === '/api/v1/user/account/self');
    expect(rename).toMatchObject({ method: 'PUT', status: 200, type: 'u', code: null, body: '{"name":"renamed"}' });
    const refused = rows.find((x) => x.url === '/api/v1/user/password');
    expect(refused).toMatchObject({ status: 401, code: 101012 });
    expect(refused!.body).toBe('{"oldPassword":"[redacted]","newPassword":"[redacted]"}');
    const login = rows.find((x) => x.url === '/api/v1/user/login' && x.status === 401);
    expect(login?.body).toBe('{"account":"user-a@example.com","password":"[redacted]"}');
    expect(rows.some((x) => x.method === 'GET')).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
  });

  it('shows a client its subtree, a user its own records, never another tenant', async () => {
    const client = await call(t, 'POST', 'auditLogs', { token: f.tokens.clientA, body: { pageSize: 100 } });
    const names = new Set(client.body.data.map((x: { accountName: string }) => x.accountName));
    expect(names).toContain('user-a@example.com');
    expect(names).toContain('client-a@example.com');
    expect(names).not.toContain('user-b@example.com');
    const user = await call(t, 'POST', 'auditLogs', { token: f.tokens.userB, body: { pageSize: 100 } });
    expect(new Set(user.body.data.map((x: { accountName: string }) => x.accountName))).toEqual(new Set(['user-b@example.com']));
  });

  it("reads through the repository no line of another tenant's accounts", async () => {
    const idsOf = async (accountId: number, tier: 'client' | 'user' | 'admin') =>
      (await auditRepo(t.deps.db, asPrincipal(accountId, tier)).lines({}).execute()).map((r) => r.account_id);
    expect(await idsOf(f.userB.id, 'user')).not.toContain(f.userA.id);
    expect(new Set(await idsOf(f.userA.id, 'user'))).toEqual(new Set([f.userA.id]));
    expect(await idsOf(f.clientB.id, 'client')).not.toContain(f.userA.id);
    expect(await idsOf(f.clientA.id, 'client')).toContain(f.userA.id);
    expect(await idsOf(f.admin.id, 'admin')).toEqual(expect.arrayContaining([f.userA.id, f.userB.id]));
  });

  it('filters by account, method, url, request id and time', async () => {
    const all = await call(t, 'POST', 'auditLogs', { token: f.tokens.admin, body: { pageSize: 100 } });
    const one = all.body.data[0];
    expect((await call(t, 'POST', 'auditLogs', { token: f.tokens.admin, body: { reqID: one.reqID } })).body).toMatchObject({ total: 1, data: [{ id: one.id }] });
    const puts = await call(t, 'POST', 'auditLogs', { token: f.tokens.admin, body: { method: 'PUT', accountName: 'USER-B' } });
    expect(puts.body.data.map((x: { accountName: string }) => x.accountName)).toEqual(['user-b@example.com']);
    const future = await call(t, 'POST', 'auditLogs', { token: f.tokens.admin, body: { startTime: Math.floor(Date.now() / 1000) + 3600 } });
    expect(future.body.total).toBe(0);
    const bad = await call(t, 'POST', 'auditLogs', { token: f.tokens.admin, body: { startTime: 'yesterday' } });
    expect(bad.body.code).toBe(101003);
  });

  it('offers no way to edit or delete records', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect((await call(t, method, 'auditLogs', { token: f.tokens.admin, body: {} })).body.code).toBe(101004);
    }
  });
});
