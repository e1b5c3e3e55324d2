import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lastMailTo, makeAccount, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { sendSetPasswordMail } from './service';

const linkToken = (t: TestApp, to: string) => {
  const match = /verifyMail\?token=([\w-]+)/.exec(lastMailTo(t, to));
  if (!match) throw new Error(`no link in the mail to ${to}`);
  return match[1];
};

lane('set-password mail and managed accounts', () => {
  let t: TestApp;
  let rootAdmin: string;
  let clientA: string;
  let clientB: string;
  let userA: string;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await startTestApp();
    const root = await makeAccount(t, { auth: 'admin', email: 'root@example.com', isRoot: true });
    const admin2 = await makeAccount(t, { auth: 'admin', email: 'admin2@example.com' });
    const a = await makeAccount(t, { auth: 'client', email: 'a@example.com', isRoot: true });
    const b = await makeAccount(t, { auth: 'client', email: 'b@example.com', isRoot: true });
    const ua = await makeAccount(t, { auth: 'user', email: 'ua@example.com', clientId: a.id });
    const ub = await makeAccount(t, { auth: 'user', email: 'ub@example.com', clientId: b.id });
    const sub = await makeAccount(t, { auth: 'user', email: 'sub@example.com', clientId: a.id, parentUserId: ua.id });
    const sibling = await makeAccount(t, { auth: 'user', email: 'sibling@example.com', clientId: a.id });
    ids = { root: root.id, admin2: admin2.id, a: a.id, b: b.id, ua: ua.id, ub: ub.id, sub: sub.id, sibling: sibling.id };
    rootAdmin = (await signIn(t, 'admin', 'root@example.com')).accessToken;
    clientA = (await signIn(t, 'client', 'a@example.com')).accessToken;
    clientB = (await signIn(t, 'client', 'b@example.com')).accessToken;
    userA = (await signIn(t, 'user', 'ua@example.com')).accessToken;
  });
  afterAll(() => t.close());

  it('a new account sets its password from the mailed link, once', async () => {
    const account = await makeAccount(t, { auth: 'user', email: 'new@example.com', password: undefined, clientId: ids.a });
    expect(account.password_hash).toBeNull();
    await sendSetPasswordMail(t.deps, account);
    const mail = lastMailTo(t, 'new@example.com');
    expect(mail).toContain('/user/verifyMail?token=');
    const token = linkToken(t, 'new@example.com');

    const check = await call(t, 'POST', 'token/check', { body: { token } });
    expect(check.body.data).toEqual({ auth: 'user', email: 'new@example.com', id: account.id, name: 'new', token });
    const short = await call(t, 'POST', 'register/password', { body: { token, password: '1234567' } });
    expect([short.status, short.body.code]).toEqual([400, 101003]);
    const mismatch = await call(t, 'POST', 'register/password', { body: { token, password: 'a good password', confirmPassword: 'other' } });
    expect(mismatch.body.code).toBe(101003);
    expect((await call(t, 'POST', 'register/password', { body: { token, password: 'a good password' } })).status).toBe(200);
    expect((await call(t, 'POST', 'register/password', { body: { token, password: 'another password' } })).body.code).toBe(101013);
    expect((await call(t, 'POST', 'token/check', { body: { token } })).body.code).toBe(101013);
    await signIn(t, 'user', 'new@example.com', 'a good password');
    const self = await t.deps.db.selectFrom('accounts').select('email_confirmed').where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(self.email_confirmed).toBe(1);
  });

  it('refuses an expired link and a link replaced by a newer one', async () => {
    const account = await makeAccount(t, { auth: 'client', email: 'late@example.com', password: undefined });
    await sendSetPasswordMail(t.deps, account);
    const first = linkToken(t, 'late@example.com');
    await new Promise((r) => setTimeout(r, 5));
    await sendSetPasswordMail(t.deps, account);
    const second = linkToken(t, 'late@example.com');
    expect((await call(t, 'POST', 'token/check', { body: { token: first } })).body.code).toBe(101013);
    await t.deps.db.updateTable('mail_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('account_id', '=', account.id).execute();
    expect((await call(t, 'POST', 'token/check', { body: { token: second } })).body.code).toBe(101013);
  });

  it('a client resends the mail to its own user; another client is answered as if the user did not exist', async () => {
    const own = await call(t, 'POST', 'client/account/resendEmail', { token: clientA, body: { id: ids.ua } });
    expect(own.status).toBe(200);
    expect(lastMailTo(t, 'ua@example.com')).toContain('/user/verifyMail?token=');
    const foreign = await call(t, 'POST', 'client/account/resendEmail', { token: clientB, body: { id: ids.ua } });
    const missing = await call(t, 'POST', 'client/account/resendEmail', { token: clientB, body: { id: 999999 } });
    expect([foreign.status, foreign.body.code]).toEqual([404, 101003]);
    expect(foreign.body).toEqual(missing.body);
  });

  it('sets passwords only inside the own subtree', async () => {
    const body = (id: number) => ({ id, password: 'set by parent' });
    expect((await call(t, 'PUT', 'client/account/password', { token: clientA, body: body(ids.sub) })).status).toBe(200);
    await signIn(t, 'user', 'sub@example.com', 'set by parent');
    expect((await call(t, 'PUT', 'client/account/password', { token: clientB, body: body(ids.ua) })).status).toBe(404);
    expect((await call(t, 'PUT', 'user/account/password', { token: userA, body: body(ids.sub) })).status).toBe(200);
    expect((await call(t, 'PUT', 'user/account/password', { token: userA, body: body(ids.sibling) })).status).toBe(404);
    expect((await call(t, 'PUT', 'user/account/password', { token: userA, body: body(ids.ub) })).status).toBe(404);
    expect((await call(t, 'PUT', 'admin/account/password', { token: rootAdmin, body: body(ids.b) })).status).toBe(200);
    expect((await call(t, 'PUT', 'admin/account/password', { token: rootAdmin, body: body(ids.admin2) })).status).toBe(200);
    expect((await call(t, 'PUT', 'admin/account/password', { token: rootAdmin, body: body(ids.ua) })).status).toBe(404);
    const admin2 = (await signIn(t, 'admin', 'admin2@example.com', 'set by parent')).accessToken;
    expect((await call(t, 'PUT', 'admin/account/password', { token: admin2, body: body(ids.root) })).status).toBe(404);
    expect((await call(t, 'PUT', 'admin/account/password', { token: rootAdmin, body: { id: ids.b, password: 'short' } })).body.code).toBe(101003);
  });

  it("a password set by the parent signs the account out everywhere", async () => {
    const before = await signIn(t, 'user', 'sibling@example.com');
    await call(t, 'PUT', 'client/account/password', { token: clientA, body: { id: ids.sibling, password: 'parent chose this' } });
    expect((await call(t, 'GET', 'user/account/self', { token: before.accessToken })).body.code).toBe(101013);
  });
});
