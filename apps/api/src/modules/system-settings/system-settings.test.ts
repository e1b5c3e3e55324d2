import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, lane, makeAccount, makeTenants, signIn, startTestApp, type TestApp } from '../../../test/harness';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';

lane('system settings', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let sink: SmtpSink;
  const get = (path: string, token = f.tokens.clientA) => call(t, 'GET', path, { token });
  const put = (path: string, body: unknown, token = f.tokens.clientA) => call(t, 'PUT', path, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    sink = await startSmtpSink({ user: 'notices', pass: 's3cret-smtp-pass' });
  });
  afterAll(async () => {
    await sink.close();
    await t.close();
  });

  const emailBody = () => ({ enabled: true, host: '127.0.0.1', port: sink.port, secure: false, username: 'notices', password: 's3cret-smtp-pass', from: 'cdn@client-a.example' });

  it('stores the mail server, never answers or stores the password in the clear, and a test mail arrives', async () => {
    expect((await get('client/setting/email')).body.data).toMatchObject({ enabled: false, passwordSet: false, updatedAt: null });
    const saved = await put('client/setting/email', emailBody());
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ enabled: true, host: '127.0.0.1', port: sink.port, username: 'notices', passwordSet: true });
    expect(JSON.stringify(saved.body)).not.toContain('s3cret');
    const row = await t.deps.db.selectFrom('system_settings').select('value').where('name', '=', 'email').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('s3cret');

    // Left out, the password is kept.
    const { password: _, ...noPassword } = emailBody();
    expect((await put('client/setting/email', noPassword)).body.data.passwordSet).toBe(true);
    const test = await call(t, 'POST', 'client/setting/email/test', { token: f.tokens.clientA, body: { to: 'ops@client-a.example' } });
    expect(test.status).toBe(200);
    expect(sink.mails.at(-1)).toMatchObject({ to: ['ops@client-a.example'], user: 'notices' });
    expect(sink.mails.at(-1)!.raw).toContain('From: cdn@client-a.example');
    expect(t.logLines.join('')).not.toContain('s3cret');
  });

  it('answers 101020 when the server refuses the test mail', async () => {
    await put('client/setting/email', { ...emailBody(), password: 'wrong' });
    const res = await call(t, 'POST', 'client/setting/email/test', { token: f.tokens.clientA, body: { to: 'ops@client-a.example' } });
    expect(res.body.code).toBe(101020);
    await put('client/setting/email', emailBody());
  });

  it('refuses bad mail settings with 101003 and changes nothing', async () => {
    const before = (await get('client/setting/email')).body.data;
    for (const bad of [
      { ...emailBody(), port: 70000 },
      { ...emailBody(), from: 'not-an-address' },
      { ...emailBody(), host: '' },
      { ...emailBody(), host: 'bad host!' },
    ]) {
      const res = await put('client/setting/email', bad);
      expect(res.body.code, JSON.stringify(bad)).toBe(101003);
    }
    expect((await get('client/setting/email')).body.data).toEqual(before);
  });

  it('round-trips the outgoing URL, ray log parts, account verify and restricted subnets', async () => {
    const cases: [string, unknown, unknown][] = [
      ['setting/system/outgoingURL', { url: 'https://bot.example.net/api' }, { url: 'https://bot.example.net/api' }],
      ['setting/system/CDNRayLog', { logParts: ['time', 'node'] }, { logParts: ['node', 'time'] }],
      ['setting/system/accountVerify', { accessTokenMinutes: 30, refreshTokenDays: 7 }, { accessTokenMinutes: 30, refreshTokenDays: 7 }],
      ['setting/system/restrictGroupCIDRs', { cidrs: ['10.0.0.0/8', '2001:db8::/32'] }, { cidrs: ['10.0.0.0/8', '2001:db8::/32'] }],
    ];
    for (const [path, body, stored] of cases) {
      const saved = await put(path, body);
      expect(saved.status, path).toBe(200);
      expect((await get(path)).body.data).toEqual({ ...(stored as object), updatedAt: saved.body.data.updatedAt });
    }
  });

  it('refuses bad settings with 101003 and keeps what was stored', async () => {
    const bad: [string, unknown][] = [
      ['setting/system/outgoingURL', { url: 'ftp://bot.example.net' }],
      ['setting/system/CDNRayLog', { logParts: ['everything'] }],
      ['setting/system/accountVerify', { accessTokenMinutes: 1, refreshTokenDays: 7 }],
      ['setting/system/accountVerify', { accessTokenMinutes: 30, refreshTokenDays: 400 }],
      ['setting/system/restrictGroupCIDRs', { cidrs: ['10.0.0.0/33'] }],
      ['setting/system/restrictGroupCIDRs', { cidrs: ['10.0.0.1'] }],
      ['setting/system/restrictGroupCIDRs', { cidrs: ['10.0.0.0/8', '10.0.0.0/8'] }],
    ];
    for (const [path, body] of bad) {
      const before = (await get(path)).body.data;
      const res = await put(path, body);
      expect(res.body.code, `${path} ${JSON.stringify(body)}`).toBe(101003);
      expect((await get(path)).body.data).toEqual(before);
    }
  });

  it("keeps each client's settings its own and refuses users and admins", async () => {
    expect((await get('setting/system/restrictGroupCIDRs', f.tokens.clientB)).body.data).toEqual({ cidrs: [], updatedAt: null });
    expect((await get('client/setting/email', f.tokens.clientB)).body.data.enabled).toBe(false);
    for (const token of [f.tokens.userA, f.tokens.admin]) {
      expect((await get('setting/system/accountVerify', token)).body.code).toBe(101013);
      expect((await put('client/setting/email', emailBody(), token)).body.code).toBe(101013);
    }
  });

  it("refuses a sub-account without the system keys", async () => {
    const role = await call(t, 'POST', 'client/role', { token: f.tokens.clientA, body: { roleName: 'viewer', permissions: ['system.view'] } });
    expect(role.status).toBe(200);
    await makeAccount(t, { auth: 'client', email: 'viewer@client-a.example', isRoot: false, parentClientId: f.clientA.id, roleId: role.body.data.id });
    const viewer = (await signIn(t, 'client', 'viewer@client-a.example')).accessToken;
    expect((await get('setting/system/accountVerify', viewer)).body.data.accessTokenMinutes).toBe(30);
    expect((await put('setting/system/accountVerify', { accessTokenMinutes: 60, refreshTokenDays: 7 }, viewer)).body.code).toBe(101018);
  });

  describe('account verify', () => {
    it("gives new sign-ins of the client and its users access tokens of the set lifetime; others keep the default", async () => {
      await put('setting/system/accountVerify', { accessTokenMinutes: 45, refreshTokenDays: 2 });
      const lifetime = (token: string) => {
        const { exp, iat } = decodeJwt(token);
        return exp! - iat!;
      };
      expect(lifetime((await signIn(t, 'client', f.clientA.email)).accessToken)).toBe(45 * 60);
      expect(lifetime((await signIn(t, 'user', f.userA.email)).accessToken)).toBe(45 * 60);
      expect(lifetime((await signIn(t, 'user', f.userB.email)).accessToken)).toBe(t.deps.config.accessTokenSeconds);
      const refresh = await t.deps.db.selectFrom('refresh_tokens').select(['created_at', 'expires_at']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      expect(Date.parse(refresh.expires_at) - Date.parse(refresh.created_at)).toBeGreaterThan(29 * 86_400_000);
      await signIn(t, 'user', f.userA.email);
      const mine = await t.deps.db.selectFrom('refresh_tokens').select(['created_at', 'expires_at']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      expect(Math.round((Date.parse(mine.expires_at) - Date.parse(mine.created_at)) / 1000)).toBe(2 * 86_400);
    });
  });
});
