import { TIERS } from '@edgekeep/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';

const PASSWORD = 'e2e password 123';

describe('sign-in over HTTP against the server started as the README does', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    await createAccountCli(server, ['--auth', 'client', '--email', 'client@example.com', '--password', PASSWORD]);
    await createAccountCli(server, ['--auth', 'user', '--email', 'user@example.com', '--password', PASSWORD, '--client', 'client@example.com']);
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('serves the console and its API docs', async () => {
    const page = await fetch(`${server.url}/client/dashboard`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const docs = (await fetch(`${server.url}/api/docs/json`).then((r) => r.json())) as { paths: object };
    expect(Object.keys(docs.paths)).toContain('/api/v1/user/login');
  });

  it.each(TIERS)('%s: sign in with the code from the SMTP server, refresh, log out', async (tier) => {
    const email = tier === 'admin' ? 'root@example.com' : `${tier}@example.com`;
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password: PASSWORD } });
    expect(step1.status).toBe(200);
    expect(step1.body.data.login2FAType).toBe(0);
    const code = await smtp.waitFor(email, /code is (\d{6})/, before);
    const step2 = await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } });
    expect(step2.status).toBe(200);
    const self = await api(server, 'GET', `${tier}/account/self`, { token: step2.body.data.accessToken });
    expect(self.body.data).toMatchObject({ auth: tier, email, isRoot: true });

    const refreshed = await api(server, 'PATCH', tier, { body: { refreshToken: step2.body.data.refreshToken } });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.data.accessToken;
    expect((await api(server, 'GET', `${tier}/account/self`, { token })).status).toBe(200);

    expect((await api(server, 'DELETE', tier, { token, body: { refreshToken: refreshed.body.data.refreshToken } })).status).toBe(200);
    expect((await api(server, 'GET', `${tier}/account/self`, { token })).body.code).toBe(101013);
  });

  it('never writes a password, a code or a token to its log', async () => {
    expect(server.output()).not.toContain(PASSWORD);
    for (const mail of smtp.mails) {
      const code = /code is (\d{6})/.exec(mail.raw)?.[1];
      if (code) expect(server.output()).not.toMatch(new RegExp(`(?<![\\d.])${code}(?![\\d.])`));
    }
  });

  it('shuts down gracefully on SIGTERM', async () => {
    await server.stop();
    expect(server.output()).toContain('"msg":"shutting down"');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
    await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
  });
});
