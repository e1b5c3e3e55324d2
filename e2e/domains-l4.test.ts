import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseMenuItem, chooseOption, expectNoPageErrors, freshPage, launchBrowser, screenshot, switchLanguage, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { addDomains, userWithPlan } from './tenants';

const PASSWORD = 'domains e2e password';
const USER = 'ports@example.com';

describe('the user-menu domains and layer-4 ports screens in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const sites: Record<string, number> = {};

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  /** Opens a screen of the user's console in English. */
  const open = async (path: string) => {
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/${path}`);
  };
  /** Opens the domains screen on a site and waits for its first domain. */
  const openDomains = async (site: string, first: string) => {
    await open(`domains?site=${sites[site]}`);
    await page.locator('tr', { hasText: first }).waitFor();
  };
  const menu = (label: string) => page.locator('.ant-layout-sider').getByText(label, { exact: true }).click();
  /** Picks a site, and waits for the screen's list of that site (the screen is drawn again for it). */
  const pickSite = async (name: string) => {
    const listed = page.waitForResponse((r) => new RegExp(`/user/site/${sites[name]}/(domains|ports)\\b`).test(r.url()) && r.request().method() === 'GET');
    await chooseOption(page, page.getByTestId('site-picker'), name);
    await page.waitForURL((url) => url.searchParams.get('site') === String(sites[name]));
    expect((await listed).status()).toBe(200);
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    // One site for each test that changes its domains or ports, so that none depends on another having run.
    for (const name of ['web', 'balance', 'scheme', 'copy', 'mirror', 'tcp', 'ports']) sites[name] = await plan.newSite(name);
    const origin = { host: '198.51.100.7' };
    await addDomains({ server, token: plan.userToken, siteId: sites.balance, names: ['a.e2e-balance.com', 'b.e2e-balance.com'], origin });
    await addDomains({ server, token: plan.userToken, siteId: sites.scheme, names: ['a.e2e-scheme.com'], origin });
    await addDomains({ server, token: plan.userToken, siteId: sites.copy, names: ['a.e2e-copy.com', 'b.e2e-copy.com'], origin });
    const ports = await api(server, 'POST', `user/site/${sites.ports}/ports`, { token: plan.userToken, body: { ports: [{ port: 4444, upstreams: [{ host: '198.51.100.20', port: 22 }] }] } });
    expect(ports.status).toBe(200);
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

  it('the domains screen adds domains to the chosen site and filters them by tag', async () => {
    await open('dashboard');
    await menu('Domains');
    await page.waitForURL('**/user/domains?site=*');
    await pickSite('web');
    await page.getByRole('button', { name: 'Add domains' }).click();
    await modal().locator('textarea').fill('a.e2e-web.com\nb.e2e-web.com');
    await modal().locator('input[id$="upstreams_0_host"]').fill('198.51.100.7');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.getByRole('button', { name: 'tags a.e2e-web.com' }).click();
    await modal().getByLabel('domain tags').fill('api');
    await page.keyboard.press('Enter');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Tags Success!');
    await page.locator('tr', { hasText: 'a.e2e-web.com' }).locator('.ant-tag', { hasText: 'api' }).waitFor();
    await page.locator('.ant-select', { hasText: 'Tag' }).first().click();
    await page.locator('.ant-select-item-option', { hasText: 'api' }).click();
    await page.waitForURL('**tags=api*');
    await page.locator('tr', { hasText: 'b.e2e-web.com' }).waitFor({ state: 'detached' });
    await screenshot(page, 'user-domains-filtered');
    await page.locator('tr', { hasText: 'a.e2e-web.com' }).waitFor();
    expect(await page.locator('.ant-table-row').count()).toBe(1);
    await openDomains('web', 'b.e2e-web.com');
    expect(await page.locator('.ant-table-row').count()).toBe(2);
  });

  it('batch settings: load balancing for both; a CNAME check marks them not pointed', async () => {
    await openDomains('balance', 'a.e2e-balance.com');
    await page.locator('thead input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Batch actions' }).click();
    await page.locator('.ant-dropdown-menu-submenu-title', { hasText: 'Load balancing' }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Least connections' }).click();
    await toast('Update Successful!');
    for (const d of ['a', 'b']) expect(await page.getByLabel(`balance ${d}.e2e-balance.com`).locator('..').textContent()).toContain('Least connections');
    await page.getByRole('button', { name: 'Check all CNAMEs' }).click();
    await toast('Detection Successful!');
    for (const d of ['a', 'b']) await page.locator('tr', { hasText: `${d}.e2e-balance.com` }).getByText('Not pointed').waitFor();
  });

  it('the scheme editor refuses follow without port mapping and saves it with mapping on', async () => {
    await openDomains('scheme', 'a.e2e-scheme.com');
    await page.getByRole('button', { name: 'scheme a.e2e-scheme.com' }).click();
    await modal().locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option', { hasText: 'Follow' }).click();
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText('The follow protocol needs port mapping on.').waitFor();
    await modal().getByRole('switch', { name: 'port mapping' }).click();
    await screenshot(page, 'user-domain-scheme');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await page.reload();
    const scheme = page.getByRole('button', { name: 'scheme a.e2e-scheme.com' });
    await scheme.getByText('Follow · mapped').waitFor();
    expect(await scheme.textContent()).toContain('Follow · mapped');
  });

  it('copies a domain to another site, disabled', async () => {
    await openDomains('copy', 'b.e2e-copy.com');
    await page.locator('tr', { hasText: 'b.e2e-copy.com' }).locator('input[type=checkbox]').check();
    await chooseMenuItem(page, page.getByRole('button', { name: 'Batch actions' }), 'Copy to another site', modal().getByLabel('target site'));
    await chooseOption(page, modal().locator('.ant-select').first(), 'mirror');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await pickSite('mirror');
    const row = page.locator('tr', { hasText: 'b.e2e-copy.com' });
    await row.getByText('198.51.100.7:80').waitFor();
    expect(await page.locator('tr', { hasText: 'a.e2e-copy.com' }).count()).toBe(0);
    expect(await page.getByRole('switch', { name: 'status b.e2e-copy.com' }).getAttribute('aria-checked')).toBe('false');
    await screenshot(page, 'user-domains-mirror');
  });

  it('the layer-4 ports screen adds ports in batch, refusing reserved ones, and edits their origins', async () => {
    await open('dashboard');
    await menu('Layer-4 ports');
    await page.waitForURL('**/user/l4Ports?site=*');
    await pickSite('tcp');
    await page.getByRole('button', { name: 'Add ports' }).click();
    await modal().locator('textarea').fill('2222\n3306');
    await modal().locator('input[id$="upstreams_0_host"]').fill('198.51.100.20');
    await modal().locator('input[id$="upstreams_0_port"]').fill('22');
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText('Port not allowed').waitFor();
    await modal().locator('textarea').fill('2222\n3000-3002');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    for (const p of ['2222', '3000', '3001', '3002']) await page.locator('tr', { hasText: p }).getByText('198.51.100.20:22').first().waitFor();
    await screenshot(page, 'user-l4-ports');
    await page.getByRole('button', { name: 'origins 2222' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('button', { name: 'Add origin' }).click();
    await modal().locator('input[id$="origin_host"]').fill('198.51.100.21');
    await modal().locator('input[id$="origin_port"]').fill('2022');
    const added = page.waitForResponse((r) => /\/port\/\d+\/upstreams$/.test(r.url()) && r.request().method() === 'POST');
    await modal().getByRole('button', { name: /OK/ }).click();
    expect((await added).status()).toBe(200);
    await toast('Create Successful!');
    await drawer.locator('tr', { hasText: '198.51.100.21' }).waitFor();
    await screenshot(page, 'user-l4-port-origins');
    await drawer.locator('.ant-drawer-close').click();
    await page.locator('tr', { hasText: '3002' }).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await toast('Remove Successful!');
    await page.reload();
    await page.locator('tr', { hasText: '2222' }).getByText('198.51.100.21:2022').waitFor();
    expect(await page.locator('tr', { hasText: '3002' }).count()).toBe(0);
  });

  it('a site with layer-4 ports takes no domains (205004)', async () => {
    await open(`domains?site=${sites.ports}`);
    await page.getByRole('button', { name: 'Add domains' }).click();
    await modal().locator('textarea').fill('tcp.e2e-web.com');
    await modal().locator('input[id$="upstreams_0_host"]').fill('198.51.100.7');
    const refused = page.waitForResponse((r) => r.url().endsWith(`/user/site/${sites.ports}/domains`) && r.request().method() === 'POST');
    await modal().getByRole('button', { name: /OK/ }).click();
    expect((await (await refused).json()).code).toBe(205004);
    await page.locator('.ant-message-notice', { hasText: 'layer-4' }).waitFor();
    await modal().getByRole('button', { name: /Cancel/ }).click();
  });

  it('shows the screens in the default language', async () => {
    await open(`domains?site=${sites.ports}`);
    await switchLanguage(page, '繁體中文');
    await page.locator('.ant-layout-sider').getByText('四層埠號').click();
    await page.locator('tr', { hasText: '4444' }).waitFor();
    await page.locator('thead').getByText('埠號').first().waitFor();
    await screenshot(page, 'user-l4-ports-zh-tw');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('zh_TW');
  });
});
