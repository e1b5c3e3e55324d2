import { TIERS } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, makeAccount, mailedCode, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';

lane('sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    for (const auth of TIERS) await makeAccount(t, { auth, email: `${auth}@example.com` });
  });
  afterAll(() => t.close());

  it.each(TIERS)('%s signs in with the mailed code and reads its self information', async (tier) => {
    const step1 = await call(t, 'POST', `${tier}/login`, { body: { account: `${tier}@example.com`, password: PASSWORD } });
    expect(step1.status).toBe(200);
    expect(step1.body.data).toEqual({ login2FAType: 0, onePassKey: expect.any(String) });
    const code = mailedCode(t, `${tier}@example.com`);
    const step2 = await call(t, 'POST', `${tier}/code`, { body: { account: `${tier}@example.com`, onePassKey: step1.body.data.onePassKey, code } });
    expect(step2.status).toBe(200);
    expect(step2.body.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer' });
    const self = await call(t, 'GET', `${tier}/account/self`, { token: step2.body.data.accessToken });
    expect(self.body.data).toMatchObject({ auth: tier, email: `${tier}@example.com`, isRoot: false, maxLogExportTimes: 3 });
    expect(Object.keys(self.body.data)).not.toContain('password_hash');
  });

  it('refuses a wrong password and an unknown account alike, with 101012', async () => {
    const wrong = await call(t, 'POST', 'user/login', { body: { account: 'user@example.com', password: 'not the password' } });
    const unknown = await call(t, 'POST', 'user/login', { body: { account: 'nobody@example.com', password: PASSWORD } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 101012]);
    expect([unknown.status, unknown.body.code]).toEqual([401, 101012]);
  });

  it('refuses a malformed e-mail and a code that is not 6 digits with 101003 naming the field', async () => {
    const badEmail = await call(t, 'POST', 'user/login', { body: { account: 'not-an-email', password: PASSWORD } });
    expect([badEmail.status, badEmail.body.code]).toEqual([400, 101003]);
    expect(badEmail.body.extra.fields[0]).toMatchObject({ in: 'body', field: 'account' });
    const badCode = await call(t, 'POST', 'user/code', { body: { account: 'user@example.com', onePassKey: 'x', code: '12345' } });
    expect(badCode.body.code).toBe(101003);
    expect(badCode.body.extra.fields[0].field).toBe('code');
  });

  it('uses a code once', async () => {
    const step1 = await call(t, 'POST', 'client/login', { body: { account: 'client@example.com', password: PASSWORD } });
    const body = { account: 'client@example.com', onePassKey: step1.body.data.onePassKey, code: mailedCode(t, 'client@example.com') };
    expect((await call(t, 'POST', 'client/code', { body })).status).toBe(200);
    const again = await call(t, 'POST', 'client/code', { body });
    expect([again.status, again.body.code]).toEqual([401, 101013]);
  });

  it('lets a code expire after ten minutes', async () => {
    const step1 = await call(t, 'POST', 'admin/login', { body: { account: 'admin@example.com', password: PASSWORD } });
    const code = mailedCode(t, 'admin@example.com');
    const eleven = new Date(Date.now() - 60_000).toISOString();
    await t.deps.db.updateTable('login_challenges').set({ expires_at: eleven }).where('used_at', 'is', null).execute();
    const late = await call(t, 'POST', 'admin/code', { body: { account: 'admin@example.com', onePassKey: step1.body.data.onePassKey, code } });
    expect(late.body.code).toBe(101013);
  });

  it('answers login2FAType 2 with the code for an account without a second factor', async () => {
    await makeAccount(t, { auth: 'user', email: 'script@example.com', secondFactor: 'none' });
    const step1 = await call(t, 'POST', 'user/login', { body: { account: 'script@example.com', password: PASSWORD } });
    expect(step1.body.data).toEqual({ login2FAType: 2, onePassKey: expect.any(String), code: expect.stringMatching(/^\d{6}$/) });
    const step2 = await call(t, 'POST', 'user/code', { body: { account: 'script@example.com', onePassKey: step1.body.data.onePassKey, code: step1.body.data.code } });
    expect(step2.status).toBe(200);
  });

  it('refuses a disabled and an expired account with 101008', async () => {
    const disabled = await makeAccount(t, { auth: 'user', email: 'disabled@example.com' });
    await t.deps.db.updateTable('accounts').set({ enabled: 0 }).where('id', '=', disabled.id).execute();
    const r1 = await call(t, 'POST', 'user/login', { body: { account: 'disabled@example.com', password: PASSWORD } });
    expect([r1.status, r1.body.code]).toEqual([403, 101008]);
    const expired = await makeAccount(t, { auth: 'user', email: 'expired@example.com' });
    await t.deps.db.updateTable('accounts').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', expired.id).execute();
    const r2 = await call(t, 'POST', 'user/login', { body: { account: 'expired@example.com', password: PASSWORD } });
    expect(r2.body.code).toBe(101008);
  });

  it('stops an open session of an account that is disabled afterwards', async () => {
    const a = await makeAccount(t, { auth: 'client', email: 'later-disabled@example.com' });
    const tokens = await signIn(t, 'client', 'later-disabled@example.com');
    await t.deps.db.updateTable('accounts').set({ enabled: 0 }).where('id', '=', a.id).execute();
    expect((await call(t, 'GET', 'client/account/self', { token: tokens.accessToken })).body.code).toBe(101008);
    expect((await call(t, 'PATCH', 'client', { body: { refreshToken: tokens.refreshToken } })).body.code).toBe(101008);
  });

  it("refuses a token on another tier's paths", async () => {
    const user = await signIn(t, 'user', 'user@example.com');
    const client = await signIn(t, 'client', 'client@example.com');
    for (const [token, path] of [
      [user.accessToken, 'admin/account/self'],
      [user.accessToken, 'client/account/self'],
      [client.accessToken, 'admin/account/self'],
      [client.accessToken, 'user/account/self'],
    ]) {
      const r = await call(t, 'GET', path, { token });
      expect([r.status, r.body.code]).toEqual([401, 101013]);
    }
    const refreshElsewhere = await call(t, 'PATCH', 'admin', { body: { refreshToken: user.refreshToken } });
    expect(refreshElsewhere.body.code).toBe(101016);
  });

  it('rotates refresh tokens, and a replayed one revokes the whole session', async () => {
    const first = await signIn(t, 'user', 'user@example.com');
    const second = await call(t, 'PATCH', 'user', { body: { refreshToken: first.refreshToken, accessToken: first.accessToken } });
    expect(second.status).toBe(200);
    expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
    const self = await call(t, 'GET', 'user/account/self', { token: second.body.data.accessToken });
    expect(self.status).toBe(200);

    const replay = await call(t, 'PATCH', 'user', { body: { refreshToken: first.refreshToken } });
    expect([replay.status, replay.body.code]).toEqual([401, 101016]);
    const successor = await call(t, 'PATCH', 'user', { body: { refreshToken: second.body.data.refreshToken } });
    expect(successor.body.code).toBe(101016);
    const access = await call(t, 'GET', 'user/account/self', { token: second.body.data.accessToken });
    expect(access.body.code).toBe(101013);
  });

  it('refuses an expired refresh token with 101016', async () => {
    const tokens = await signIn(t, 'admin', 'admin@example.com');
    await t.deps.db.updateTable('refresh_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('rotated_at', 'is', null).execute();
    const r = await call(t, 'PATCH', 'admin', { body: { refreshToken: tokens.refreshToken } });
    expect([r.status, r.body.code]).toEqual([401, 101016]);
  });

  it('logs out: the access token and the refresh token stop working', async () => {
    const tokens = await signIn(t, 'client', 'client@example.com');
    const out = await call(t, 'DELETE', 'client', { token: tokens.accessToken, body: { refreshToken: tokens.refreshToken } });
    expect(out.status).toBe(200);
    expect((await call(t, 'GET', 'client/account/self', { token: tokens.accessToken })).body.code).toBe(101013);
    expect((await call(t, 'PATCH', 'client', { body: { refreshToken: tokens.refreshToken } })).body.code).toBe(101016);
  });

  it('sends a login notice when the account asks for it', async () => {
    const a = await makeAccount(t, { auth: 'user', email: 'notify@example.com' });
    await t.deps.db.updateTable('accounts').set({ login_notify: 1 }).where('id', '=', a.id).execute();
    await signIn(t, 'user', 'notify@example.com');
    expect(lastSubject(t, 'notify@example.com')).toContain('new sign-in');
  });
});

lane('sign-in throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true' });
    await makeAccount(t, { auth: 'user', email: 'target@example.com' });
    await makeAccount(t, { auth: 'user', email: 'other@example.com' });
  });
  afterAll(() => t.close());

  it('throttles an account after five failures: even the right password is refused with HTTP 429', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await call(t, 'POST', 'user/login', { body: { account: 'target@example.com', password: `wrong ${i}` }, headers: { 'x-forwarded-for': `10.9.0.${i}` } });
      expect(r.body.code).toBe(101012);
    }
    const right = await call(t, 'POST', 'user/login', { body: { account: 'target@example.com', password: PASSWORD }, headers: { 'x-forwarded-for': '10.9.1.1' } });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe(101031);
    expect(right.body.extra.retryAfterSeconds).toBeGreaterThan(0);
    const other = await call(t, 'POST', 'user/login', { body: { account: 'other@example.com', password: PASSWORD }, headers: { 'x-forwarded-for': '10.9.1.1' } });
    expect(other.status).toBe(200);
  });

  it('throttles an address after twenty failures across accounts', async () => {
    for (let i = 0; i < 20; i++) {
      await call(t, 'POST', 'user/login', { body: { account: `probe${i}@example.com`, password: 'guess' }, headers: { 'x-forwarded-for': '10.8.0.1' } });
    }
    const r = await call(t, 'POST', 'user/login', { body: { account: 'other@example.com', password: PASSWORD }, headers: { 'x-forwarded-for': '10.8.0.1' } });
    expect([r.status, r.body.code]).toEqual([429, 101031]);
  });

  it("never refuses the right password from a known address for what strangers spent", async () => {
    await makeAccount(t, { auth: 'admin', email: 'boss@example.com' });
    const proxy = { 'x-forwarded-for': '10.6.0.1' };
    await signIn(t, 'admin', 'boss@example.com', PASSWORD, proxy);
    for (let i = 0; i < 20; i++) {
      await call(t, 'POST', 'admin/login', { body: { account: `made-up${i}@example.com`, password: 'guess' }, headers: proxy });
    }
    for (let i = 0; i < 5; i++) {
      await call(t, 'POST', 'admin/login', { body: { account: 'boss@example.com', password: 'guess' }, headers: { 'x-forwarded-for': `10.6.1.${i}` } });
    }
    const stranger = await call(t, 'POST', 'admin/login', { body: { account: 'boss@example.com', password: PASSWORD }, headers: { 'x-forwarded-for': '10.6.2.1' } });
    expect([stranger.status, stranger.body.code]).toEqual([429, 101031]);
    const known = await call(t, 'POST', 'admin/login', { body: { account: 'boss@example.com', password: PASSWORD }, headers: proxy });
    expect(known.status).toBe(200);
    for (let i = 0; i < 5; i++) {
      await call(t, 'POST', 'admin/login', { body: { account: 'boss@example.com', password: `typo ${i}` }, headers: proxy });
    }
    const own = await call(t, 'POST', 'admin/login', { body: { account: 'boss@example.com', password: PASSWORD }, headers: proxy });
    expect([own.status, own.body.code]).toEqual([429, 101031]);
  });

  it('counts wrong codes too, and burns a challenge after five wrong tries', async () => {
    await makeAccount(t, { auth: 'client', email: 'codes@example.com' });
    const headers = { 'x-forwarded-for': '10.7.0.1' };
    const step1 = await call(t, 'POST', 'client/login', { body: { account: 'codes@example.com', password: PASSWORD }, headers });
    const right = mailedCode(t, 'codes@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const r = await call(t, 'POST', 'client/code', { body: { account: 'codes@example.com', onePassKey: step1.body.data.onePassKey, code: wrong }, headers });
      expect(r.body.code).toBe(101013);
    }
    const fifth = await call(t, 'POST', 'client/code', { body: { account: 'codes@example.com', onePassKey: step1.body.data.onePassKey, code: right }, headers });
    expect(fifth.status).toBe(200);
    const step1b = await call(t, 'POST', 'client/login', { body: { account: 'codes@example.com', password: PASSWORD }, headers });
    const rightB = mailedCode(t, 'codes@example.com');
    for (let i = 0; i < 5; i++) {
      await call(t, 'POST', 'client/code', { body: { account: 'codes@example.com', onePassKey: step1b.body.data.onePassKey, code: rightB === '000000' ? '111111' : '000000' }, headers });
    }
    await t.deps.db.deleteFrom('auth_failures').execute();
    const afterBurn = await call(t, 'POST', 'client/code', { body: { account: 'codes@example.com', onePassKey: step1b.body.data.onePassKey, code: rightB }, headers });
    expect([afterBurn.status, afterBurn.body.code]).toEqual([401, 101013]);
  });
});

lane('expired access tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ACCESS_TOKEN_SECONDS: '-60' });
    await makeAccount(t, { auth: 'user', email: 'user@example.com' });
  });
  afterAll(() => t.close());

  it('answers 101014 so that the console refreshes, and the refresh still works', async () => {
    const tokens = await signIn(t, 'user', 'user@example.com');
    const r = await call(t, 'GET', 'user/account/self', { token: tokens.accessToken });
    expect([r.status, r.body.code]).toEqual([401, 101014]);
    const refreshed = await call(t, 'PATCH', 'user', { body: { refreshToken: tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
  });
});

function lastSubject(t: TestApp, to: string) {
  const mails = t.logLines.map((l) => JSON.parse(l)).filter((l) => l.to === to && l.subject);
  return mails.at(-1)?.subject as string;
}
