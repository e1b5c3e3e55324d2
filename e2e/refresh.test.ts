import { TIERS, type Tier } from '@edgekeep/contract';
import type { Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, freshPage, launchBrowser } from './browser';
import { createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const EMAIL: Record<Tier, string> = { admin: 'root@example.com', client: 'ops@example.com', user: 'shop@example.com' };
const ACCESS_TOKEN_SECONDS = 3;
const expire = () => new Promise((r) => setTimeout(r, (ACCESS_TOKEN_SECONDS + 1) * 1000));

describe('an expired access token in the browser', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({
      SMTP_URL: smtp.url,
      ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS),
      ADMIN_EMAIL: EMAIL.admin,
      ADMIN_PASSWORD: PASSWORD,
    });
    await createAccountCli(server, ['--auth', 'client', '--email', EMAIL.client, '--password', PASSWORD]);
    await createAccountCli(server, ['--auth', 'user', '--email', EMAIL.user, '--password', PASSWORD]);
    browser = await launchBrowser();
  });
  afterEach(() => expectNoPageErrors(browser.errors));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it.each(TIERS)('%s: is refreshed once, the calls go on, and a failed refresh signs out', async (tier) => {
    const { context } = browser;
    const page = await freshPage(context, server.url);
    await signInThroughForm(page, { baseUrl: server.url, tier, email: EMAIL[tier], password: PASSWORD, smtp });
    const landed = new URL(page.url()).pathname;
    // Each refresh: when it was asked for and when its answer came.
    const refreshes: { asked: number; answered?: number }[] = [];
    const isRefresh = (req: Request) => req.method() === 'PATCH' && req.url().endsWith(`/api/v1/${tier}`);
    page.on('request', (req) => isRefresh(req) && refreshes.push({ asked: Date.now() }));
    page.on('requestfinished', (req) => {
      // a refresh under way when the page was taken over may finish without its request seen here
      const open = isRefresh(req) ? refreshes.find((r) => r.answered === undefined) : undefined;
      if (open) open.answered = Date.now();
    });
    // A second refresh is one too many unless the token of the one before had lapsed by then (its lifetime is counted
    // in whole seconds, so it lapses at the earliest a second short of ACCESS_TOKEN_SECONDS after it was given).
    const needless = () =>
      refreshes.filter((r, i) => i > 0 && r.asked - (refreshes[i - 1].answered ?? Infinity) < (ACCESS_TOKEN_SECONDS - 1) * 1000);
    const refreshToken = async () => (await context.cookies()).find((c) => c.name === `${tier[0]}_refreshToken`)?.value;
    const first = await refreshToken();

    // After the lifetime the reload's self call meets 101014: one refresh, then the call again.
    await expire();
    await page.reload();
    await page.getByTestId('account-menu').getByText(EMAIL[tier]).waitFor();
    // Under load the landing can outlast the 3-second token itself: a later refresh then is needed, not a second one.
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(needless()).toEqual([]);
    expect(await refreshToken()).not.toBe(first);
    expect(new URL(page.url()).pathname).toBe(landed);

    // A change made with an expired token goes through too.
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '用戶資訊' }).click();
    await page.waitForURL(`**/${tier}/userManagement/userInformation`);
    await expire();
    const before = refreshes.length;
    await page.locator('#name').fill(`${tier}-renamed`);
    await page.getByRole('button', { name: '儲 存' }).click();
    await page.getByText('資訊更新成功！').waitFor();
    // refreshed for the change (the 3-second token may also have lapsed again on a slow machine since the last check)
    expect(refreshes.length).toBeGreaterThan(before);
    expect(needless()).toEqual([]);
    await page.getByTestId('self-summary').getByText(`${tier}-renamed`).waitFor();

    // A refresh token that no longer works ends the session: cookies gone, back to the login form.
    await context.addCookies([{ name: `${tier[0]}_refreshToken`, value: 'revoked', url: server.url }]);
    await expire();
    await page.reload();
    await page.waitForURL(`**/${tier}/login`);
    expect((await context.cookies()).filter((c) => c.name.startsWith(`${tier[0]}_`))).toEqual([]);
    await page.close();
  });

});
