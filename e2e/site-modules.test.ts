import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { addDomains, userWithPlan } from './tenants';

const PASSWORD = 'modules e2e password';
const USER = 'modules@example.com';

describe('the site module screens in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let siteId: number;
  let userToken: string;
  /** www gets a module assigned in the screen; api has one assigned over the API, to unassign. */
  let domains: Record<string, number>;

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  const openTab = (key: string) => page.goto(`${server.url}/user/sitesManagement/sitesSetting/${siteId}/shop?tab=${key}`);
  const servedHeaders = async (domain: string) =>
    (await api(server, 'GET', `user/site/${siteId}/domain/${domains[domain]}/customHeaders`, { token: userToken })).body.data;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    userToken = plan.userToken;
    siteId = await plan.newSite('shop');
    domains = await addDomains({ server, token: userToken, siteId, names: ['www.modules-shop.com', 'api.modules-shop.com'], origin: { host: '198.51.100.7' } });
    const as = { token: userToken };
    const made = await api(server, 'PUT', `user/site/${siteId}/module/customHeader`, { ...as, body: { name: 'cache headers' } });
    await api(server, 'PUT', `user/site/${siteId}/domains/module/customHeader`, { ...as, body: { domainIDs: [domains['api.modules-shop.com']], moduleID: made.body.data.id } });

    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('creates a custom-header module, adds headers (a repeat is refused with the override message) and assigns it to a domain', async () => {
    await openTab('customHeader');
    await page.getByTestId('module-add-customHeader').click();
    await modal().getByTestId('module-name').fill('security headers');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    const row = page.locator('tr', { hasText: 'security headers' });
    await row.getByRole('button', { name: 'Rules' }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.getByTestId('header-name').fill('X-Frame-Options');
    await drawer.getByTestId('header-value').fill('DENY');
    await drawer.getByTestId('header-add').click();
    await toast('Create Successful!');
    await drawer.locator('tr', { hasText: 'X-Frame-Options' }).getByText('DENY').waitFor();
    await drawer.getByTestId('header-name').fill('x-frame-options');
    await drawer.getByTestId('header-value').fill('SAMEORIGIN');
    await drawer.getByTestId('header-add').click();
    await page.locator('.ant-message-notice', { hasText: 'Duplicate keys are not allowed' }).first().waitFor();
    await screenshot(page, 'user-site-module-headers');
    await drawer.getByTestId('edit-X-Frame-Options').click();
    expect(await drawer.getByTestId('header-value').inputValue()).toBe('DENY');
    await drawer.getByTestId('header-value').fill('SAMEORIGIN');
    await drawer.getByTestId('header-add').click();
    await toast('Update Successful!');
    await drawer.locator('tr', { hasText: 'X-Frame-Options' }).getByText('SAMEORIGIN').waitFor();
    expect(await drawer.locator('tr', { hasText: 'X-Frame-Options' }).count()).toBe(1);
    expect(await drawer.getByTestId('header-name').inputValue()).toBe('');
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Assign to domains' }).click();
    await chooseOption(page, modal().getByTestId('assign-domains'), 'www.modules-shop.com');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await row.locator('.ant-tag', { hasText: 'www.modules-shop.com' }).waitFor();
    await screenshot(page, 'user-site-modules');
    expect(await servedHeaders('www.modules-shop.com')).toMatchObject({ module: { name: 'security headers' }, headers: [{ name: 'X-Frame-Options', value: 'SAMEORIGIN' }] });
  });

  it('unassigns with the None option', async () => {
    expect(await servedHeaders('api.modules-shop.com')).toMatchObject({ module: { name: 'cache headers' } });
    await openTab('customHeader');
    await page.locator('tr', { hasText: 'cache headers' }).getByRole('button', { name: 'Assign to domains' }).click();
    await chooseOption(page, modal().getByTestId('assign-domains'), 'api.modules-shop.com');
    await chooseOption(page, modal().getByTestId('assign-module'), 'None');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    expect(await servedHeaders('api.modules-shop.com')).toEqual({ module: null, headers: [] });
  });

  it('creates a token-auth module, shows the generated key once and signs a URL in the screen', async () => {
    await openTab('tokenAuth');
    await page.getByTestId('module-add-tokenAuth').click();
    await modal().locator('input').first().fill('videos');
    await modal().getByRole('button', { name: /OK/ }).click();
    const key = await page.getByTestId('generated-key').innerText();
    expect(key.trim().length).toBeGreaterThanOrEqual(16);
    await modal().getByRole('button', { name: /OK/ }).click();
    const row = page.locator('tr', { hasText: 'videos' });
    await row.getByRole('button', { name: 'Rules' }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.getByTestId('sign-path').fill('/videos/intro.mp4');
    await drawer.getByTestId('sign-submit').click();
    const url = await drawer.getByTestId('signed-url').innerText();
    expect(url).toMatch(/^\/videos\/intro\.mp4\?expires=\d+&sign=[0-9a-f]{40}/);
    await screenshot(page, 'user-site-module-token-auth');
  });

  it('adds a header rule for a domain and edits it in place', async () => {
    await openTab('accessRules');
    await chooseOption(page, page.getByTestId('rules-domain'), 'www.modules-shop.com');
    const name = page.getByPlaceholder('User-Agent');
    await name.fill('X-Scanner');
    const form = page.locator('form', { has: name });
    await form.getByPlaceholder('Value').fill('nmap');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await toast('Create Successful!');
    await page.getByTestId('edit-X-Scanner').click();
    expect(await name.inputValue()).toBe('X-Scanner');
    await name.fill('X-Probe');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await toast('Update Successful!');
    await page.locator('tr', { hasText: 'X-Probe' }).waitFor();
    const served = await api(server, 'GET', `user/site/${siteId}/domain/${domains['www.modules-shop.com']}/antiHeaders`, { token: userToken });
    expect(served.body.data).toEqual([expect.objectContaining({ name: 'X-Probe' })]);
    await screenshot(page, 'user-site-module-access-rules');
  });
});
