import { generate } from 'otplib';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, makeAccount, mailedCode, PASSWORD, lane, signIn, startTestApp, type TestApp } from '../../../test/harness';

const secretOf = (uri: string) => new URL(uri).searchParams.get('secret')!;
// Codes are made relative to one moment per test, so a 30-second boundary crossed mid-test changes nothing.
let base = 0;
const totpAt = (secret: string, offsetSeconds = 0) => generate({ secret, epoch: base + offsetSeconds });

lane('own account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(() => {
    base = Math.floor(Date.now() / 1000);
  });
  afterAll(() => t.close());

  it('edits its own name and login-notify flag, and refuses names the spec forbids', async () => {
    await makeAccount(t, { auth: 'user', email: 'self@example.com' });
    const { accessToken: token } = await signIn(t, 'user', 'self@example.com');
    const ok = await call(t, 'PUT', 'user/account/self', { token, body: { name: 'Shop-2', loginNotify: true } });
    expect(ok.body.data).toMatchObject({ name: 'Shop-2', loginNotify: true });
    for (const name of ['default', 'DEFAULT', 'has space', 'under_score', 'ünïcode', '']) {
      const bad = await call(t, 'PUT', 'user/account/self', { token, body: { name } });
      expect([bad.status, bad.body.code], name).toEqual([400, 101003]);
    }
    expect((await call(t, 'GET', 'user/account/self', { token })).body.data.name).toBe('Shop-2');
  });

  it('changes its password: the old one stops working, other sessions end, short ones are refused', async () => {
    await makeAccount(t, { auth: 'client', email: 'pw@example.com' });
    const mine = await signIn(t, 'client', 'pw@example.com');
    const other = await signIn(t, 'client', 'pw@example.com');
    const short = await call(t, 'PATCH', 'client/password', { token: mine.accessToken, body: { oldPassword: PASSWORD, newPassword: 'short' } });
    expect(short.body.code).toBe(101003);
    const mismatch = await call(t, 'PATCH', 'client/password', {
      token: mine.accessToken,
      body: { oldPassword: PASSWORD, newPassword: 'a new password', confirmPassword: 'another one' },
    });
    expect(mismatch.body.extra.fields[0]).toMatchObject({ field: 'confirmPassword', message: 'The passwords do not match' });
    const wrongOld = await call(t, 'PATCH', 'client/password', { token: mine.accessToken, body: { oldPassword: 'not it', newPassword: 'a new password' } });
    expect(wrongOld.body.code).toBe(101012);
    const changed = await call(t, 'PATCH', 'client/password', { token: mine.accessToken, body: { oldPassword: PASSWORD, newPassword: 'a new password' } });
    expect(changed.status).toBe(200);
    expect((await call(t, 'GET', 'client/account/self', { token: mine.accessToken })).status).toBe(200);
    expect((await call(t, 'GET', 'client/account/self', { token: other.accessToken })).body.code).toBe(101013);
    expect((await call(t, 'POST', 'client/login', { body: { account: 'pw@example.com', password: PASSWORD } })).body.code).toBe(101012);
    await signIn(t, 'client', 'pw@example.com', 'a new password');
    const hash = await t.deps.db.selectFrom('accounts').select('password_hash').where('email', '=', 'pw@example.com').executeTakeFirstOrThrow();
    expect(hash.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('verifies its own password before a sensitive step', async () => {
    await makeAccount(t, { auth: 'admin', email: 'verify@example.com' });
    const { accessToken: token } = await signIn(t, 'admin', 'verify@example.com');
    expect((await call(t, 'POST', 'admin/verify', { token, body: { password: PASSWORD } })).status).toBe(200);
    expect((await call(t, 'POST', 'admin/verify', { token, body: { password: 'nope' } })).body.code).toBe(101012);
  });

  it('sets up the authenticator in three phases, signs in with it, and refuses a code twice', async () => {
    const email = 'totp@example.com';
    await makeAccount(t, { auth: 'user', email });
    const { accessToken: token } = await signIn(t, 'user', email);

    const p0 = await call(t, 'POST', 'user/login2fa/phase0', { token });
    expect(p0.body.data).toMatchObject({ login2FAType: 0, enabling: true });
    const wrong = await call(t, 'POST', 'user/login2fa/phase1', { token, body: { onePassKey: p0.body.data.onePassKey, code: '000000' } });
    expect(wrong.body.code).toBe(101013);
    const p1 = await call(t, 'POST', 'user/login2fa/phase1', { token, body: { onePassKey: p0.body.data.onePassKey, code: mailedCode(t, email) } });
    expect(p1.body.data.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(p1.body.data.qrCodeData).toMatch(/^otpauth:\/\/totp\/EdgeKeep:totp%40example\.com\?/);
    const secret = secretOf(p1.body.data.qrCodeData);
    const p2 = await call(t, 'POST', 'user/login2fa/phase2', { token, body: { onePassKey: p1.body.data.onePassKey, code: await totpAt(secret) } });
    expect(p2.body.data).toEqual({ login2FAType: 1 });
    expect((await call(t, 'GET', 'user/account/self', { token })).body.data.login2FAType).toBe(1);
    const stored = await t.deps.db.selectFrom('accounts').select('totp_secret').where('email', '=', email).executeTakeFirstOrThrow();
    expect(stored.totp_secret).not.toContain(secret);

    const login = await call(t, 'POST', 'user/login', { body: { account: email, password: PASSWORD } });
    expect(login.body.data).toEqual({ login2FAType: 1, onePassKey: expect.any(String) });
    const reused = await call(t, 'POST', 'user/code', { body: { account: email, onePassKey: login.body.data.onePassKey, code: await totpAt(secret) } });
    expect(reused.body.code).toBe(101013);
    const next = await call(t, 'POST', 'user/code', { body: { account: email, onePassKey: login.body.data.onePassKey, code: await totpAt(secret, 30) } });
    expect(next.status).toBe(200);
    const drifted = await call(t, 'POST', 'user/login', { body: { account: email, password: PASSWORD } });
    const tooFar = await call(t, 'POST', 'user/code', { body: { account: email, onePassKey: drifted.body.data.onePassKey, code: await totpAt(secret, 120) } });
    expect(tooFar.body.code).toBe(101013);
  });

  it('turns the authenticator off only after its code is given', async () => {
    const email = 'off@example.com';
    await makeAccount(t, { auth: 'client', email });
    const { accessToken: token } = await signIn(t, 'client', email);
    const p0 = await call(t, 'POST', 'client/login2fa/phase0', { token });
    const p1 = await call(t, 'POST', 'client/login2fa/phase1', { token, body: { onePassKey: p0.body.data.onePassKey, code: mailedCode(t, email) } });
    const secret = secretOf(p1.body.data.qrCodeData);
    await call(t, 'POST', 'client/login2fa/phase2', { token, body: { onePassKey: p1.body.data.onePassKey, code: await totpAt(secret) } });

    const off0 = await call(t, 'POST', 'client/login2fa/phase0', { token });
    expect(off0.body.data).toMatchObject({ login2FAType: 1, enabling: false });
    const mailed = await call(t, 'POST', 'client/login2fa/phase1', { token, body: { onePassKey: off0.body.data.onePassKey, code: '123456' } });
    expect(mailed.body.code).toBe(101013);
    expect((await call(t, 'GET', 'client/account/self', { token })).body.data.login2FAType).toBe(1);
    const off1 = await call(t, 'POST', 'client/login2fa/phase1', { token, body: { onePassKey: off0.body.data.onePassKey, code: await totpAt(secret, 30) } });
    expect(off1.body.data).toEqual({ login2FAType: 0 });
    const login = await call(t, 'POST', 'client/login', { body: { account: email, password: PASSWORD } });
    expect(login.body.data.login2FAType).toBe(0);
  });

  it('never answers or logs a secret', async () => {
    const joined = t.logLines.join('\n');
    const rows = await t.deps.db.selectFrom('accounts').select(['password_hash', 'totp_secret']).execute();
    for (const row of rows) {
      if (row.password_hash) expect(joined).not.toContain(row.password_hash);
      if (row.totp_secret) expect(joined).not.toContain(row.totp_secret);
    }
    expect(joined).not.toContain(PASSWORD);
    const tokens = await t.deps.db.selectFrom('refresh_tokens').select('token_hash').execute();
    for (const { token_hash } of tokens) expect(joined).not.toContain(token_hash);
  });
});
