import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { call, lastMailTo, makeTenants, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';

lane('managed accounts', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let roleA: number;

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'ops', permissions: ['accounts.view', 'sites.view'] } });
    roleA = role.body.data.id;
  });
  afterAll(() => t.close());

  it('an admin creates a client, which gets the set-password mail', async () => {
    const r = await call(t, 'POST', 'admin/account', { token: f.tokens.admin, body: { auth: 'client', email: 'Reseller@Example.com', name: 'reseller' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ auth: 'client', email: 'reseller@example.com', isRoot: true, emailConfirmed: false, createdBy: f.admin.id });
    expect(lastMailTo(t, 'reseller@example.com')).toContain('/client/verifyMail?token=');
    const dup = await call(t, 'POST', 'admin/account', { token: f.tokens.admin, body: { auth: 'client', email: 'reseller@example.com', name: 'again' } });
    expect([dup.status, dup.body.code]).toEqual([409, 101017]);
  });

  it('a client creates a root user, and a sub-client only with one of its roles', async () => {
    const user = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { email: 'shop@example.com', name: 'shop', password: PASSWORD } });
    expect(user.body.data).toMatchObject({ auth: 'user', isRoot: true, clientID: f.clientA.id, emailConfirmed: true });
    const noRole = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { auth: 'client', email: 'sub@example.com', name: 'sub' } });
    expect(noRole.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'roleID' }] } });
    const foreignRole = await call(t, 'POST', 'client/account', { token: f.tokens.clientB, body: { auth: 'client', email: 'sub@example.com', name: 'sub', roleID: roleA } });
    expect(foreignRole.body).toMatchObject({ code: 101003, extra: { fields: [{ field: 'roleID' }] } });
    const sub = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { auth: 'client', email: 'sub@example.com', name: 'sub', roleID: roleA } });
    expect(sub.body.data).toMatchObject({ auth: 'client', isRoot: false, parentClientID: f.clientA.id, roleName: 'ops' });
    const wrongKind = await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { auth: 'client', email: 'x@example.com', name: 'x' } });
    expect(wrongKind.body.code).toBe(101003);
  });

  it('refuses the account fields the spec forbids and changes nothing', async () => {
    for (const body of [
      { email: 'bad', name: 'ok' },
      { email: 'ok@example.com', name: 'default' },
      { email: 'ok@example.com', name: 'has space' },
      { email: 'ok@example.com', name: 'ok', password: 'short' },
    ]) {
      const r = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body });
      expect(r.body.code, JSON.stringify(body)).toBe(101003);
    }
    const list = await call(t, 'GET', 'client/accounts?name=ok', { token: f.tokens.clientA });
    expect(list.body.total).toBe(0);
  });

  it('lists only its own subtree, with filters, paging and sort', async () => {
    const a = await call(t, 'GET', 'client/accounts?pageSize=50', { token: f.tokens.clientA });
    const emails = a.body.data.map((x: { email: string }) => x.email);
    expect(emails).toEqual(expect.arrayContaining(['user-a@example.com', 'shop@example.com', 'sub@example.com']));
    expect(emails).not.toContain('user-b@example.com');
    expect(emails).not.toContain('client-a@example.com');
    const users = await call(t, 'GET', 'client/accounts?auth=user&sortBy=email&orderBy=ascend', { token: f.tokens.clientA });
    expect(users.body.data.map((x: { email: string }) => x.email)).toEqual(['shop@example.com', 'user-a@example.com']);
    const paged = await call(t, 'GET', 'client/accounts?pageSize=1&page=2&sortBy=email&orderBy=ascend', { token: f.tokens.clientA });
    expect(paged.body).toMatchObject({ total: 3, data: [{ email: 'sub@example.com' }] });
    expect((await call(t, 'GET', 'client/accounts?name=SHOP', { token: f.tokens.clientA })).body.total).toBe(1);
    expect((await call(t, 'GET', 'user/accounts?auth=user', { token: f.tokens.userA })).body.code).toBe(101003);
    expect((await call(t, 'GET', 'client/accounts?sortBy=password_hash', { token: f.tokens.clientA })).body.code).toBe(101003);
    const admin = await call(t, 'GET', 'admin/accounts?pageSize=100', { token: f.tokens.admin });
    expect(admin.body.data.every((x: { auth: string }) => x.auth !== 'user')).toBe(true);
  });

  it("cannot read, change, remove or switch into another tenant's accounts", async () => {
    const b = f.tokens.clientB;
    const target = f.userA.id;
    const missing = await call(t, 'PUT', 'client/account', { token: b, body: { id: 999999, name: 'x' } });
    for (const r of [
      await call(t, 'PUT', 'client/account', { token: b, body: { id: target, name: 'taken' } }),
      await call(t, 'DELETE', 'client/account', { token: b, body: { ids: [target] } }),
      await call(t, 'POST', 'client/proxy', { token: b, body: { id: target } }),
      await call(t, 'GET', `client/account/${target}/subs`, { token: b }),
      await call(t, 'PUT', 'client/account/password', { token: b, body: { id: target, password: 'hijacked!' } }),
      await call(t, 'POST', 'client/account/resendEmail', { token: b, body: { id: target } }),
      await call(t, 'PUT', 'client/account/role', { token: b, body: { ids: [target], roleID: roleA } }),
    ]) {
      expect(r.body).toEqual(missing.body);
    }
    const still = await call(t, 'GET', 'client/accounts?name=user-a', { token: f.tokens.clientA });
    expect(still.body.data[0].name).toBe('user-a');
    expect((await call(t, 'PUT', 'user/account', { token: f.tokens.userB, body: { id: f.userA.id, name: 'x' } })).status).toBe(404);
  });

  it('a user manages its sub-users, never its siblings', async () => {
    const role = await call(t, 'POST', 'user/role', { token: f.tokens.userA, body: { roleName: 'viewer', permissions: ['sites.view'] } });
    const sub = await call(t, 'POST', 'user/account', { token: f.tokens.userA, body: { email: 'sub-user@example.com', name: 'sub-user', roleID: role.body.data.id, password: PASSWORD } });
    expect(sub.body.data).toMatchObject({ auth: 'user', isRoot: false, parentUserID: f.userA.id, clientID: f.clientA.id });
    const shopToken = (await signIn(t, 'user', 'shop@example.com')).accessToken;
    expect((await call(t, 'PUT', 'user/account', { token: shopToken, body: { id: sub.body.data.id, name: 'x' } })).status).toBe(404);
    expect((await call(t, 'GET', `user/account/${f.userA.id}/subs`, { token: shopToken })).status).toBe(404);
    const subs = await call(t, 'GET', `client/account/${f.userA.id}/subs`, { token: f.tokens.clientA });
    expect(subs.body.data.map((x: { email: string }) => x.email)).toEqual(['sub-user@example.com']);
  });

  it('disabling an account ends its sessions; removing one removes its subtree', async () => {
    const made = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { email: 'temp@example.com', name: 'temp', password: PASSWORD } });
    const id = made.body.data.id;
    const session = await signIn(t, 'user', 'temp@example.com');
    const disabled = await call(t, 'PUT', 'client/account', { token: f.tokens.clientA, body: { id, enabled: false, expiredAt: '2030-01-01T00:00:00Z', loginNotify: true } });
    expect(disabled.body.data).toMatchObject({ enabled: false, expiredAt: '2030-01-01T00:00:00.000Z', loginNotify: true });
    expect((await call(t, 'GET', 'user/account/self', { token: session.accessToken })).status).toBe(401);
    expect((await call(t, 'POST', 'user/login', { body: { account: 'temp@example.com', password: PASSWORD } })).body.code).toBe(101008);

    const parent = await call(t, 'POST', 'client/account', { token: f.tokens.clientA, body: { email: 'parent@example.com', name: 'parent', password: PASSWORD } });
    const parentToken = (await signIn(t, 'user', 'parent@example.com')).accessToken;
    const parentRole = await call(t, 'POST', 'user/role', { token: parentToken, body: { roleName: 'r', permissions: [] } });
    await call(t, 'POST', 'user/account', { token: parentToken, body: { email: 'child@example.com', name: 'child', roleID: parentRole.body.data.id } });
    expect((await call(t, 'DELETE', 'client/account', { token: f.tokens.clientA, body: { ids: [parent.body.data.id, id] } })).status).toBe(200);
    const left = await t.deps.db.selectFrom('accounts').select('email').where('email', 'in', ['parent@example.com', 'child@example.com', 'temp@example.com']).execute();
    expect(left).toEqual([]);
  });

  it('switches into a sub-account: its calls carry the original account as proxy', async () => {
    const r = await call(t, 'POST', 'client/proxy', { token: f.tokens.clientA, body: { id: f.userA.id } });
    expect(r.body.data).toMatchObject({ auth: 'user', tokenType: 'Bearer' });
    const self = await call(t, 'GET', 'user/account/self', { token: r.body.data.accessToken });
    expect(self.body.data).toMatchObject({ email: 'user-a@example.com', proxy: { email: 'client-a@example.com', auth: 'client' } });
    await call(t, 'PUT', 'user/account/self', { token: r.body.data.accessToken, body: { loginNotify: false } });
    // the operation log is written once the answer has gone: ask until it is there
    await vi.waitFor(async () => {
      const log = await call(t, 'POST', 'auditLogs', { token: f.tokens.clientA, body: { url: '/api/v1/user/account/self' } });
      expect(log.body.data[0]).toMatchObject({ accountName: 'user-a@example.com', proxyName: 'client-a@example.com', method: 'PUT', status: 200, type: 'u' });
    });
  });
});
