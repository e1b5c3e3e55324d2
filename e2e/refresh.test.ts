import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser } from './browser';
import { createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const EMAIL = 'shop@example.com';
const ACCESS_TOKEN_SECONDS = 3;

describe('an expired access token in the browser', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS) });
    await createAccountCli(server, ['--auth', 'user', '--email', EMAIL, '--password', PASSWORD]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('is refreshed once, the calls go on, and a failed refresh signs out', async () => {
    const { context } = browser;
    const page = await freshPage(context, server.url);
    await signInThroughForm(page, { baseUrl: server.url, tier: 'user', email: EMAIL, password: PASSWORD, smtp });
    const refreshes: string[] = [];
    page.on('request', (req) => req.method() === 'PATCH' && req.url().endsWith('/api/v1/user') && refreshes.push(req.url()));
    const refreshToken = async () => (await context.cookies()).find((c) => c.name === 'u_refreshToken')?.value;
    const first = await refreshToken();

    // After the lifetime the reload's self call meets 101014: one refresh, then the call again.
    await page.waitForTimeout((ACCESS_TOKEN_SECONDS + 1) * 1000);
    await page.reload();
    await page.getByTestId('self-summary').getByText(EMAIL).waitFor();
    expect(refreshes).toHaveLength(1);
    expect(await refreshToken()).not.toBe(first);
    expect(new URL(page.url()).pathname).toBe('/user/dashboard');

    // A change made with an expired token goes through too.
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '用戶資訊' }).click();
    await page.waitForURL('**/user/userManagement/userInformation');
    await page.waitForTimeout((ACCESS_TOKEN_SECONDS + 1) * 1000);
    await page.locator('#name').fill('shop-front');
    await page.getByRole('button', { name: '儲 存' }).or(page.getByRole('button', { name: '儲存' })).click();
    await page.getByText('資訊更新成功！').waitFor();
    expect(refreshes).toHaveLength(2);
    await page.getByTestId('self-summary').getByText('shop-front').waitFor();

    // A refresh token that no longer works ends the session: cookies gone, back to the login form.
    await context.addCookies([{ name: 'u_refreshToken', value: 'revoked', url: server.url }]);
    await page.waitForTimeout((ACCESS_TOKEN_SECONDS + 1) * 1000);
    await page.reload();
    await page.waitForURL('**/user/login');
    expect((await context.cookies()).filter((c) => c.name.startsWith('u_'))).toEqual([]);
    expect(browser.errors).toEqual([]);
  });
});
