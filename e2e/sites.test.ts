import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../apps/agent/src/test/certificates';
import { freshPage, launchBrowser, screenshot, switchLanguage, topModal, waitForToast } from './browser';
import { startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { userWithPlan } from './tenants';

const PASSWORD = 'sites e2e password';
const USER = 'shop@example.com';
const DOMAINS = ['www.e2e-shop.com', 'img.e2e-shop.com'];

describe("the user's site screens in Chromium", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let page: Page;
  let siteId: number;

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  const tab = (name: string) => page.getByRole('tab', { name }).click();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    siteId = await (await userWithPlan({ server, smtp, password: PASSWORD, user: USER })).newSite('shop');
    browser = await launchBrowser();
    context = browser.context;
    page = await freshPage(context, server.url);
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('lists the site with its status and CNAME, and edits its tags', async () => {
    await page.locator('.ant-layout-sider').getByText('Sites management').click();
    await page.locator('.ant-layout-sider').getByText('Sites', { exact: true }).click();
    await page.waitForURL('**/user/sitesManagement/sites');
    const row = page.locator('tr', { hasText: 'shop' });
    await row.getByText('Normal').waitFor();
    await row.getByText('Starter plan').waitFor();
    await row.getByRole('button', { name: 'Edit tags' }).click();
    await modal().locator('input').fill('production');
    await page.keyboard.press('Enter');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Tags Success!');
    await row.locator('.ant-tag', { hasText: 'production' }).waitFor();
    await screenshot(page, 'user-sites-list');
    await row.getByRole('link', { name: 'shop' }).first().click();
    await page.waitForURL(`**/user/sitesManagement/sitesSetting/${siteId}/shop`);
  });

  it('adds two domains in batch with an origin; a refused line is listed and nothing typed is lost', async () => {
    await page.getByRole('button', { name: 'Add domains' }).click();
    const textarea = modal().locator('textarea');
    await textarea.fill(`${DOMAINS[0]}\nno-top-level`);
    await modal().locator('input[id$="upstreams_0_host"]').fill('198.51.100.7');
    await modal().locator('input[id$="upstreams_0_port"]').fill('8080');
    await modal().getByRole('button', { name: /OK/ }).click();
    const refused = page.locator('.ant-modal-confirm', { hasText: 'multiple error' });
    await refused.getByText('no-top-level').waitFor();
    await page.waitForTimeout(400);
    await screenshot(page, 'user-site-domains-refused');
    await refused.getByRole('button', { name: 'Confirm' }).click();
    expect(await textarea.inputValue()).toBe(`${DOMAINS[0]}\nno-top-level`);
    await textarea.fill(DOMAINS.join('\n'));
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    for (const d of DOMAINS) await page.locator('tr', { hasText: d }).getByText('198.51.100.7:8080').waitFor();
  });

  it('warns before HSTS on a domain without a certificate', async () => {
    await page.getByRole('switch', { name: `hsts ${DOMAINS[0]}` }).click();
    const warning = page.locator('.ant-popconfirm', { hasText: 'no certificate' });
    await warning.waitFor();
    await warning.getByRole('button', { name: 'No' }).click();
    expect(await page.getByRole('switch', { name: `hsts ${DOMAINS[0]}` }).getAttribute('aria-checked')).toBe('false');
  });

  it('edits an origin in the drawer', async () => {
    await page.locator('tr', { hasText: DOMAINS[0] }).getByRole('button', { name: '198.51.100.7:8080' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.locator('tr', { hasText: '198.51.100.7' }).getByRole('button', { name: 'Edit' }).click();
    await modal().locator('input[id$="origin_weight"]').fill('5');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await drawer.locator('tr', { hasText: '198.51.100.7' }).getByRole('cell', { name: '5', exact: true }).waitFor();
    await screenshot(page, 'user-site-origins');
    // The only origin cannot go: a domain keeps one enabled (401008).
    await drawer.locator('tr', { hasText: '198.51.100.7' }).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.locator('.ant-message-notice', { hasText: 'At least one origin must be enabled' }).waitFor();
    await drawer.locator('tr', { hasText: '198.51.100.7' }).waitFor();
    await drawer.locator('.ant-drawer-close').click();
  });

  it('uploads a certificate, shows what it read, and binds it to both domains', async () => {
    const cert = await selfSignedCertificate({ host: DOMAINS[0], names: ['*.e2e-shop.com'], days: 30 });
    await tab('Certificates');
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    await modal().locator('input#name').fill('e2e-shop wildcard');
    await page.getByTestId('certificate-chain').fill(cert.chain);
    await page.getByTestId('certificate-key').fill(cert.key);
    await modal().getByRole('button', { name: /OK/ }).click();
    const details = page.getByTestId('certificate-details');
    await details.getByText('*.e2e-shop.com').waitFor();
    await details.locator('.ant-tag', { hasText: 'Valid' }).waitFor();
    await screenshot(page, 'user-site-certificate-uploaded');
    await modal().getByRole('button', { name: 'Bind to domains' }).click();
    await page.getByTestId('bind-domains').click();
    for (const d of DOMAINS) await page.locator('.ant-select-item-option', { hasText: d }).click();
    await page.keyboard.press('Escape');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await page.locator('tr', { hasText: 'e2e-shop wildcard' }).getByText([...DOMAINS].sort().join(', ')).waitFor();
  });

  it('adds a cache rule from a quick pick and turns gzip on', async () => {
    await tab('Cache');
    await page.getByRole('button', { name: 'Add cache rule' }).click();
    await modal().getByRole('button', { name: 'Images' }).click();
    await modal().locator('input#seconds').fill('600');
    await modal().getByText('Force', { exact: true }).click();
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.getByTestId('gzip-switch').click();
    await toast('Update Successful!');
  });

  it('adds an error page', async () => {
    await tab('Error pages');
    await page.getByRole('button', { name: 'Add error page' }).click();
    await page.getByTestId('error-page-status').click();
    await page.locator('.ant-select-item-option', { hasText: '502' }).click();
    await modal().locator('textarea#body').fill('<h1>Back soon</h1>');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
  });

  it('keeps every value after a reload', async () => {
    await page.reload();
    await page.locator('tr', { hasText: '502' }).getByText('Show content').waitFor();
    await page.locator('tr', { hasText: '502' }).getByText('<h1>Back soon</h1>').waitFor();
    await screenshot(page, 'user-site-error-pages');

    await tab('Cache');
    const rule = page.locator('tr', { hasText: 'jpeg' });
    for (const text of ['gif', 'png', 'bmp', '600', 'Force']) await rule.getByText(text, { exact: true }).waitFor();
    expect(await page.getByTestId('gzip-switch').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'user-site-cache');

    await tab('Certificates');
    await page.locator('tr', { hasText: 'e2e-shop wildcard' }).getByText([...DOMAINS].sort().join(', ')).waitFor();
    await screenshot(page, 'user-site-certificates');

    await tab('Domains');
    for (const d of DOMAINS) {
      const row = page.locator('tr', { hasText: d });
      await row.getByText('198.51.100.7:8080').waitFor();
      await row.getByText('e2e-shop wildcard').waitFor();
    }
    await screenshot(page, 'user-site-domains');
  });

  it('turns HSTS on for a domain with a certificate without a warning', async () => {
    await page.getByRole('switch', { name: `hsts ${DOMAINS[1]}` }).click();
    await toast('Update Successful!');
    expect(await page.getByRole('switch', { name: `hsts ${DOMAINS[1]}` }).getAttribute('aria-checked')).toBe('true');
  });

  it('shows the same screen in the default language', async () => {
    await switchLanguage(page, '繁體中文');
    await page.getByRole('tab', { name: '網域' }).waitFor();
    await page.locator('thead').getByText('回源協定').waitFor();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'user-site-domains-zh-tw');
  });

  it('raised no error in any page', () => {
    expect(browser.errors).toEqual([]);
  });
});
