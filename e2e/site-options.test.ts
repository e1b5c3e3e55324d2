import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseMenuItem, expectNoPageErrors, freshPage, launchBrowser, screenshot, switchLanguage, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { addDomains, userWithPlan } from './tenants';

const PASSWORD = 'site options e2e password';
const USER = 'owner@example.com';

describe("a site's option tabs in Chromium", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let siteId: number;
  let userToken: string;

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  const panel = () => page.getByRole('tabpanel');
  const settings = async () => (await api(server, 'GET', `user/site/${siteId}/settings`, { token: userToken })).body.data;
  /** Opens a screen of the sites management in English. */
  const open = async (path: string) => {
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/sitesManagement/${path}`);
  };
  /** Opens the site's settings on a tab (by its key in the address). */
  const openSite = async (tabKey: string) => {
    await open(`sitesSetting/${siteId}/shop?tab=${tabKey}`);
    await panel().waitFor();
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER, ports: { httpPorts: [80, 8080], httpsPorts: [443] } });
    userToken = plan.userToken;
    siteId = await plan.newSite('shop');
    // www and api get their origins replaced in one test; static keeps its own for the drawer's.
    await addDomains({ server, token: userToken, siteId, names: ['www.e2e-shop.com'], origin: { host: '198.51.100.7' } });
    await addDomains({ server, token: userToken, siteId, names: ['api.e2e-shop.com'], origin: { host: '198.51.100.8' } });
    await addDomains({ server, token: userToken, siteId, names: ['static.e2e-shop.com'], origin: { host: '198.51.100.9' } });
    const role = await api(server, 'POST', 'user/role', { token: userToken, body: { roleName: 'viewer', permissions: ['sites.view'] } });
    await api(server, 'POST', 'user/account', { token: userToken, body: { email: 'helper@example.com', name: 'helper', roleID: role.body.data.id, password: PASSWORD } });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD });
  });
  afterEach(() => expectNoPageErrors(browser.errors));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('adds a rate rule, refusing a URL that does not end with /, and removes it after asking', async () => {
    await openSite('rates');
    await panel().getByRole('button', { name: 'Add rate rule' }).click();
    await modal().getByTestId('rate-url').fill('https://www.e2e-shop.com/downloads');
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText('Wrong Fromat!').waitFor();
    await modal().getByTestId('rate-url').fill('https://www.e2e-shop.com/downloads/');
    await modal().getByTestId('rate-value').fill('256');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await panel().locator('tr', { hasText: 'https://www.e2e-shop.com/downloads/' }).getByText('256 K/s').waitFor();
    await screenshot(page, 'site-rates-tab');
    await panel().getByRole('button', { name: 'Add rate rule' }).click();
    await modal().getByTestId('rate-url').fill('https://www.e2e-shop.com/tmp/');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await panel().locator('tr', { hasText: '/tmp/' }).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /OK|Yes/ }).click();
    await toast('Remove Successful!');
    expect((await settings()).rates.map((r: { url: string }) => r.url)).toEqual([
      'https://www.e2e-shop.com/downloads/',
    ]);
  });

  it('turns WebP on in the compression tab', async () => {
    await openSite('compression');
    await panel().getByTestId('webp-on').click();
    await toast('Update Successful!');
    expect(await panel().getByTestId('webp-on').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'site-compression-tab');
  });

  it('warns that HTTPS is off while HSTS is set', async () => {
    await openSite('hsts');
    await panel().getByTestId('hsts-warning').waitFor();
    await panel().getByTestId('hsts-enabled').click();
    await panel().getByRole('checkbox', { name: 'includeSubDomains' }).check();
    await panel().getByRole('button', { name: 'Save' }).click();
    await toast('Update Successful!');
    await screenshot(page, 'site-hsts-tab');
    expect((await settings()).hsts).toMatchObject({ enabled: true, includeSubDomains: true });
  });

  it('sets the body size to 0 (no check)', async () => {
    await openSite('bodySize');
    await panel().getByText('This site').click();
    await panel().getByTestId('body-size').fill('0');
    await panel().getByRole('button', { name: 'Save' }).click();
    await toast('Update Successful!');
    await panel().getByText('The body size is not checked.').waitFor();
    await screenshot(page, 'site-body-size-tab');
    expect((await settings()).clientMaxBodySize).toBe(0);
  });

  it("turns one of the zone's HTTP ports off, and keeps the last one", async () => {
    await openSite('ports');
    await panel().getByTestId('port-http-8080').click();
    await toast('Update Successful!');
    expect(await panel().getByTestId('port-http-80').isDisabled()).toBe(true);
    await screenshot(page, 'site-ports-tab');
  });

  it('adds a DNS record for a domain, checking the value against the type', async () => {
    await openSite('dns');
    await panel().getByRole('button', { name: 'Add DNS record' }).click();
    await modal().getByTestId('dns-name').fill('www');
    await modal().getByTestId('dns-value').fill('not-an-ip');
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText('Wrong Fromat!').waitFor();
    await modal().getByTestId('dns-value').fill('203.0.113.9');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await panel().locator('tr', { hasText: '203.0.113.9' }).waitFor();
    await screenshot(page, 'site-dns-tab');
    const records = (await api(server, 'GET', `user/site/${siteId}/setting/dns`, { token: userToken })).body.data;
    expect(records.map((r: { name: string; type: string; value: string }) => [r.name, r.type, r.value])).toEqual([['www', 'A', '203.0.113.9']]);
  });

  it('queues a warm-cache task and lists it with its status', async () => {
    await openSite('cacheTasks');
    await panel().getByTestId('warm-urls').fill('https://www.e2e-shop.com/index.html');
    await panel().getByTestId('warm-submit').click();
    await toast('Create Successful!');
    await panel().locator('tr', { hasText: 'https://www.e2e-shop.com/index.html' }).getByText('No node to run it').waitFor();
    await screenshot(page, 'site-cache-tasks-tab');
    const tasks = (await api(server, 'GET', `user/site/${siteId}/setting/cacheTasks`, { token: userToken })).body.data;
    expect(tasks.map((t: { type: string; urls: string[] }) => [t.type, t.urls])).toEqual([['warm', ['https://www.e2e-shop.com/index.html']]]);
  });

  it('shares the site with a sub-user from the sites list', async () => {
    await open('sites');
    await page.getByTestId(`share-site-${siteId}`).click();
    await modal().getByTestId('share-helper@example.com').click();
    await toast('Update Successful!');
    await screenshot(page, 'site-users-dialog');
    const shared = await api(server, 'GET', `user/site/users/${siteId}`, { token: userToken });
    expect(shared.body.data.map((u: { email: string }) => u.email)).toEqual(['helper@example.com']);
  });

  it('keeps the cache in a directory of the site, refusing one outside the cache folder', async () => {
    await openSite('cache');
    await panel().getByText("A directory of this site's own").click();
    expect(await panel().getByTestId('cache-dir').getAttribute('placeholder')).toBe(`/var/cache/nginx/edgekeep/site-${siteId}`);
    await panel().getByTestId('cache-dir').fill('/etc/nginx');
    await panel().getByRole('button', { name: 'Save' }).click();
    await panel().getByText('An absolute path under /var/cache/nginx/edgekeep/').first().waitFor();
    await panel().getByTestId('cache-dir').fill('/var/cache/nginx/edgekeep/e2e-shop');
    await panel().getByRole('button', { name: 'Save' }).click();
    await toast('Update Successful!');
    await panel().getByText("The edge keeps this site's cache in /var/cache/nginx/edgekeep/e2e-shop.").waitFor();
    await screenshot(page, 'site-cache-directory');
    expect((await settings()).cache.directory).toBe('/var/cache/nginx/edgekeep/e2e-shop');
  });

  it('sets the same origins on two chosen domains after asking, replaces an origin IP, and shows them after a reload', async () => {
    await openSite('domains');
    const row = (name: string) => panel().locator('tr', { hasText: name });
    for (const name of ['www.e2e-shop.com', 'api.e2e-shop.com']) await row(name).getByRole('checkbox').check();
    await chooseMenuItem(page, panel().getByRole('button', { name: 'Batch actions' }), 'Set origins', modal().getByPlaceholder('203.0.113.10'));
    await modal().getByPlaceholder('203.0.113.10').fill('203.0.113.50');
    await modal().getByRole('button', { name: /OK/ }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: 'Replace the origins of 2 domains? Their current origins are removed.' }).waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Yes' }).click();
    await toast('Update Successful!');
    await page.reload();
    for (const name of ['www.e2e-shop.com', 'api.e2e-shop.com']) await row(name).getByText('203.0.113.50:80').waitFor();
    await screenshot(page, 'domains-batch-origins');

    await panel().getByRole('button', { name: 'Replace origin IP' }).click();
    await modal().getByTestId('old-host').fill('203.0.113.50');
    await modal().getByTestId('new-host').fill('203.0.113.60');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('2 origins changed.');
    await page.reload();
    for (const name of ['www.e2e-shop.com', 'api.e2e-shop.com']) await row(name).getByText('203.0.113.60:80').waitFor();
    expect(await row('static.e2e-shop.com').getByText('198.51.100.9:80').count()).toBe(1);
  });

  it("shows a domain's settings in its drawer", async () => {
    await openSite('domains');
    await panel().locator('tr', { hasText: 'static.e2e-shop.com' }).getByRole('button', { name: '198.51.100.9:80' }).click();
    const drawer = page.getByTestId('domain-settings');
    await drawer.getByText('Settings of static.e2e-shop.com').waitFor();
    await drawer.getByText('Round robin').waitFor();
    await screenshot(page, 'domain-drawer-settings');
    expect(await drawer.getByText('Settings of www.e2e-shop.com').count()).toBe(0);
  });

  it('shows the HSTS warning in the default language', async () => {
    await openSite('hsts');
    await switchLanguage(page, '繁體中文');
    await page.getByText('此網站未啟用 HTTPS').waitFor();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'site-hsts-tab-zh-tw');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('zh_TW');
  });
});
