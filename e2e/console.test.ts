import { TIERS, type Tier } from '@edgekeep/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, freshPage, launchBrowser, screenshot, switchLanguage, waitForTextOf, waitForTitle } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const EMAIL: Record<Tier, string> = { admin: 'root@example.com', client: 'client@example.com', user: 'user@example.com' };
/** Where each tier lands after signing in: the root client has no DNS type yet. */
const LANDING: Record<Tier, string> = {
  admin: '/admin/dashboard',
  client: '/client/systemManagement/dnsSetting',
  user: '/user/dashboard',
};

describe('the web console in Chromium against the server started as the README does', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: EMAIL.admin, ADMIN_PASSWORD: PASSWORD });
    await createAccountCli(server, ['--auth', 'client', '--email', EMAIL.client, '--password', PASSWORD]);
    await createAccountCli(server, ['--auth', 'user', '--email', EMAIL.user, '--password', PASSWORD, '--client', EMAIL.client]);
    await createAccountCli(server, ['--auth', 'user', '--email', 'script@example.com', '--password', PASSWORD, '--no-second-factor']);
    browser = await launchBrowser();
    context = browser.context;
  });
  afterEach(() => expectNoPageErrors(browser.errors));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  // First: no page of this browser has loaded the error page's file yet.
  it('answers a missing script with 404; a tab whose screen file is gone reloads once and opens the new version', async () => {
    expect((await fetch(`${server.url}/assets/no-such-chunk.js`)).status).toBe(404);
    // The console's page is asked for on every load; its scripts, named by their content, are kept for good.
    const html = await fetch(`${server.url}/user/dashboard`);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())![1];
    expect((await fetch(`${server.url}${entry}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await context.newPage();
    let loads = 0;
    page.on('load', () => loads++);
    // As after a deploy: the screen's file of the version this tab runs is gone; after the reload it is there.
    let gone = true;
    await page.route('**/assets/error-page-*.js', (route) => (gone ? ((gone = false), route.fulfill({ status: 404, body: 'not found' })) : route.continue()));
    await page.goto(`${server.url}/404`);
    await page.getByText('找不到頁面').waitFor();
    expect(loads).toBe(2);
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    await page.close();
    // The failed load is what this test is about, not an error of the console.
    const expected = (e: string) => /dynamically imported module/.test(e);
    browser.errors.splice(0, browser.errors.length, ...browser.errors.filter((e) => !expected(e)));
  });

  it.each(TIERS)('%s: signs in with the mailed code, stays signed in, switches language, logs out', async (tier) => {
    const page = await freshPage(context, server.url);
    // The welcome toast lasts 3 s: watched from before the sign-in, so that a slow landing does not outlast it.
    const toastAt50 = page.waitForFunction(
      (text) => [...document.querySelectorAll('.ant-message-notice')].some((el) => el.textContent?.includes(text) && Math.round(el.getBoundingClientRect().top) === 50),
      '登入成功！歡迎！',
      { timeout: 60_000 },
    );
    const landed = await signInThroughForm(page, { baseUrl: server.url, tier, email: EMAIL[tier], password: PASSWORD, smtp });
    expect(landed).toBe(LANDING[tier]);
    await toastAt50;
    const prefix = `${tier[0]}_`;
    const session = (await context.cookies()).filter((c) => c.name.startsWith(prefix));
    expect(session.map((c) => c.name).sort()).toEqual(['accessToken', 'refreshToken', 'tokenType'].map((f) => prefix + f));
    // The console asks for two years (see cookies.test.ts); Chromium keeps a cookie at most 400 days.
    for (const cookie of session) expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(399 * 86_400_000);
    const worker = page.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then((r) => r.active?.scriptURL),
        new Promise((resolve) => setTimeout(() => resolve('no service worker within 10 s'), 10_000)),
      ]),
    );
    expect(await worker).toBe(`${server.url}/sw.js`);
    if (tier === 'user') await expect(page.getByTestId('self-summary').textContent()).resolves.toContain(EMAIL[tier]);

    await page.reload();
    await page.getByTestId('account-menu').getByText(EMAIL[tier]).waitFor();
    expect(new URL(page.url()).pathname).toBe(LANDING[tier]);
    await screenshot(page, `${tier}-signed-in`);

    // zh_TW is the default; the sidebar follows the chosen language and so does the component library.
    const sidebar = page.locator('.ant-layout-sider');
    await sidebar.getByText('儀表板').waitFor();
    expect(await cutMenuLabels(page)).toEqual([]);
    await switchLanguage(page, '简体中文');
    await sidebar.getByText('仪表盘').waitFor();
    expect(await cutMenuLabels(page)).toEqual([]);
    await switchLanguage(page, 'English');
    await sidebar.getByText('Dashboard', { exact: true }).waitFor();
    await page.reload();
    await sidebar.getByText('Dashboard', { exact: true }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('language')])).toEqual(['en-US', 'en_US']);
    // Every entry of the area reads whole in the sider, the longest English ones too.
    expect(await cutMenuLabels(page)).toEqual([]);
    await screenshot(page, `${tier}-sider-english`);

    // The header names the screen's place in the menu, and the browser tab the screen.
    await sidebar.getByText('Roles', { exact: true }).click();
    await page.waitForURL(`**/${tier}/userManagement/roles`);
    await waitForTextOf(page, 'breadcrumb', 'User management/Roles');
    await waitForTitle(page, /^Roles · /);
    // A path inside the area that matches no screen keeps the sider and header around the error page.
    await page.goto(`${server.url}/${tier}/no-such-screen`);
    await page.getByText('Page not found').waitFor();
    await sidebar.getByText('Dashboard', { exact: true }).waitFor();
    await page.getByTestId('account-menu').getByText(EMAIL[tier]).waitFor();
    await screenshot(page, `${tier}-not-found`);
    // "Back to home" is the area's own dashboard, never another area's sign-in page.
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL(`**/${tier}/dashboard`);
    if (tier === 'user') {
      // The user menu's certificates and custom error pages open their screens over the chosen site.
      for (const [label, path] of [['Certificates', 'certificates'], ['Custom error pages', 'errorPages']]) {
        await sidebar.getByText(label, { exact: true }).click();
        await page.waitForURL(`**/user/${path}`);
        await page.locator('.ant-card-head-title', { hasText: label }).waitFor();
        await page.getByText('You have no sites yet.').waitFor();
        await waitForTextOf(page, 'breadcrumb', label);
        await screenshot(page, `user-${path}`);
      }
    }

    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`**/${tier}/login`);
    await page.getByText('Logout success! See you!').waitFor();
    await page.locator('#account').waitFor();
    await screenshot(page, `${tier}-logged-out`);
    const cookies = (await context.cookies()).filter((c) => c.name.startsWith(`${tier[0]}_`));
    expect(cookies).toEqual([]);
    await page.goto(`${server.url}/${tier}/dashboard`);
    await page.waitForURL(`**/${tier}/login`);
    await page.close();
  });

  it('follows the redirect rules of the tier paths', async () => {
    const page = await freshPage(context, server.url);
    const landsOn = async (from: string) => {
      await page.goto(`${server.url}${from}`);
      await page.waitForLoadState('networkidle');
      return new URL(page.url()).pathname;
    };
    expect(await landsOn('/')).toBe('/user/login');
    expect(await landsOn('/admin')).toBe('/admin/login');
    expect(await landsOn('/client/')).toBe('/client/login');
    expect(await landsOn('/nowhere/at/all')).toBe('/user/login');
    expect(await landsOn('/user/admin/accounts')).toBe('/404');
    expect(await landsOn('/client/x/admin/y')).toBe('/404');
    expect(await landsOn('/404')).toBe('/404');
    await page.getByText('找不到頁面').waitFor();
    expect(await landsOn('/user/no-such-screen')).toBe('/user/no-such-screen');
    await page.getByText('找不到頁面').waitFor();
    expect(await landsOn('/user/switchUser')).toBe('/user/login');
    expect(await landsOn('/user/login/verifyAccount')).toBe('/user/login');
    expect(await landsOn('/admin/login/createPassword')).toBe('/admin/login');

    // switchUser stores the three cookies and opens the dashboard; the sign-in pages then skip to it.
    const tokens = await signInByApi('user');
    const query = new URLSearchParams(tokens);
    expect(await landsOn(`/user/switchUser?${query}`)).toBe('/user/dashboard');
    await page.getByTestId('self-summary').getByText(EMAIL.user).waitFor();
    expect(await landsOn('/user/login')).toBe('/user/dashboard');
    expect(await landsOn('/user/login/verifyAccount')).toBe('/user/dashboard');
    expect(await landsOn('/user')).toBe('/user/dashboard');
    // Cookies are per tier: the user's session does not open the client area.
    expect(await landsOn('/client/dashboard')).toBe('/client/login');
    await page.close();
  });

  it('verifyMail: a bad link goes back to login with a message, a good one to CreatePassword and a working password', async () => {
    const page = await freshPage(context, server.url);
    await page.goto(`${server.url}/user/verifyMail?token=not-a-real-token`);
    await page.waitForURL('**/user/login');
    await page.getByText('此連結無效或已過期').waitFor();

    // The client asks for a set-password mail for its user, as the users screen will.
    const self = await signInByApi('client');
    const userId = (await api(server, 'GET', 'user/account/self', { token: (await signInByApi('user')).accessToken })).body.data.id;
    const before = smtp.mails.length;
    expect((await api(server, 'POST', 'client/account/resendEmail', { token: self.accessToken, body: { id: userId } })).status).toBe(200);
    const link = await smtp.waitFor(EMAIL.user, /(http\S+verifyMail\?token=\S+)/, before);
    const token = new URL(link).searchParams.get('token')!;

    await page.goto(`${server.url}/user/verifyMail?token=${encodeURIComponent(token)}`);
    await page.waitForURL('**/user/login/createPassword?**');
    const params = new URL(page.url()).searchParams;
    expect(Object.fromEntries(params)).toMatchObject({ auth: 'user', email: EMAIL.user, id: String(userId), token });
    await page.locator('#password').fill('a brand new password');
    await page.locator('#confirmPassword').fill('a different one');
    await page.locator('button[type=submit]').click();
    await page.getByText('兩次輸入的密碼不一致').waitFor();
    await page.locator('#confirmPassword').fill('a brand new password');
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/user/login');
    await page.getByText('密碼建立成功！').waitFor();
    const landed = await signInThroughForm(page, { baseUrl: server.url, tier: 'user', email: EMAIL.user, password: 'a brand new password', smtp });
    expect(landed).toBe('/user/dashboard');
    await page.close();
  });

  it('shows a wrong password and a wrong code; an account without a second factor signs in at once', async () => {
    const page = await freshPage(context, server.url);
    await page.goto(`${server.url}/user/login`);
    await page.locator('#account').fill('not-an-email');
    await page.locator('button[type=submit]').click();
    await page.getByText('電子郵件格式不正確。').waitFor();
    await page.locator('#account').fill(EMAIL.client);
    await page.locator('#password').fill('wrong password');
    await page.locator('button[type=submit]').click();
    await page.getByText('憑證驗證失敗').waitFor();

    await page.locator('#account').fill('script@example.com');
    await page.locator('#password').fill(PASSWORD);
    // The welcome toast lasts 3 s, less than a slow dashboard may take to show: watched from the click on.
    const welcomed = page.getByText('登入成功！歡迎！').waitFor();
    await page.locator('button[type=submit]').click();
    await welcomed;
    await page.waitForURL('**/user/dashboard');
    await page.getByTestId('self-summary').getByText('script@example.com').waitFor();

    await context.clearCookies();
    await page.goto(`${server.url}/admin/login`);
    await page.locator('#account').fill(EMAIL.admin);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/admin/login/verifyAccount');
    await page.getByText('請至信箱收取驗證碼。').waitFor();
    await page.locator('#code').fill('000000');
    await page.locator('button[type=submit]').click();
    await page.getByText('驗證碼錯誤或權杖無效').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login/verifyAccount');
    await page.close();
  });


  /** Opens every group of the sider, then names the entries whose label does not fit (cut with an ellipsis). */
  async function cutMenuLabels(page: Page) {
    const sider = page.locator('.ant-layout-sider');
    const closed = sider.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    while ((await closed.count()) > 0) {
      await closed.first().click();
      await sider.locator('.ant-menu-submenu-open .ant-menu-sub').last().waitFor();
    }
    return sider.locator('.ant-menu-title-content').evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent));
  }

  async function signInByApi(tier: Tier, password = PASSWORD) {
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: EMAIL[tier], password } });
    const code = await smtp.waitFor(EMAIL[tier], /code is (\d{6})/, before);
    return (await api(server, 'POST', `${tier}/code`, { body: { account: EMAIL[tier], onePassKey: step1.body.data.onePassKey, code } })).body
      .data as { accessToken: string; refreshToken: string; tokenType: string };
  }
});
