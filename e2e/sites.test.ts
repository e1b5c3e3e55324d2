import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../apps/agent/src/test/certificates';
import { chooseOption, expectNoPageErrors, freshPage, launchBrowser, screenshot, switchLanguage, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { addDomains, userWithPlan } from './tenants';

const PASSWORD = 'sites e2e password';
const USER = 'shop@example.com';
/** Added through the screen to the empty site "shop". */
const DOMAINS = ['www.e2e-shop.com', 'img.e2e-shop.com'];
/** Domains of the site "ready", added over the API: one without a certificate, two to bind one to, one served with one. */
const PLAIN = 'plain.e2e-ready.com';
const TO_BIND = ['www.e2e-ready.com', 'img.e2e-ready.com'];
const SECURE = 'secure.e2e-ready.com';

describe("the user's site screens in Chromium", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let userToken: string;
  const sites = { shop: 0, ready: 0 };

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  const tab = (name: string) => page.getByRole('tab', { name }).click();
  /** Opens a site's settings in English. */
  const openSite = async (name: keyof typeof sites) => {
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/sitesManagement/sitesSetting/${sites[name]}/${name}`);
    await page.getByRole('tab', { name: 'Domains' }).waitFor();
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    userToken = plan.userToken;
    sites.shop = await plan.newSite('shop');
    sites.ready = await plan.newSite('ready');
    const as = { server, token: userToken, siteId: sites.ready };
    const ids = await addDomains({ ...as, names: [PLAIN, ...TO_BIND, SECURE], origin: { host: '198.51.100.7', port: 8080 } });
    const { chain, key } = await selfSignedCertificate({ host: SECURE });
    const cert = (await api(server, 'POST', `user/site/${sites.ready}/certificate`, { token: userToken, body: { name: 'secure', certificate: chain, key } })).body.data;
    await api(server, 'PATCH', `user/site/${sites.ready}/certificate/domains`, { token: userToken, body: { id: cert.id, domainIDs: [ids[SECURE]] } });
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

  it('lists the site with its status and CNAME, and edits its tags', async () => {
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/dashboard`);
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
    expect(await row.locator('.ant-tag').allTextContents()).toContain('production');
    await screenshot(page, 'user-sites-list');
    await row.getByRole('link', { name: 'shop' }).first().click();
    await page.waitForURL(`**/user/sitesManagement/sitesSetting/${sites.shop}/shop`);
  });

  it('adds two domains in batch with an origin; a refused line is listed and nothing typed is lost', async () => {
    await openSite('shop');
    await page.getByRole('button', { name: 'Add domains' }).click();
    const textarea = modal().locator('textarea');
    await textarea.fill(`${DOMAINS[0]}\nno-top-level`);
    await modal().locator('input[id$="upstreams_0_host"]').fill('198.51.100.7');
    await modal().locator('input[id$="upstreams_0_port"]').fill('8080');
    await modal().getByRole('button', { name: /OK/ }).click();
    const refused = page.locator('.ant-modal-confirm', { hasText: 'multiple error' });
    await refused.getByText('no-top-level').waitFor();
    await screenshot(page, 'user-site-domains-refused');
    await refused.getByRole('button', { name: 'Confirm' }).click();
    expect(await textarea.inputValue()).toBe(`${DOMAINS[0]}\nno-top-level`);
    await textarea.fill(DOMAINS.join('\n'));
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    for (const d of DOMAINS) await page.locator('tr', { hasText: d }).getByText('198.51.100.7:8080').waitFor();
    await screenshot(page, 'user-site-domains');
    const kept = (await api(server, 'GET', `user/site/${sites.shop}/domains`, { token: userToken })).body.data as { name: string }[];
    expect(kept.map((d) => d.name).sort()).toEqual([...DOMAINS].sort());
  });

  it('warns before HSTS on a domain without a certificate', async () => {
    await openSite('ready');
    await page.getByRole('switch', { name: `hsts ${PLAIN}` }).click();
    const warning = page.locator('.ant-popconfirm', { hasText: 'no certificate' });
    await warning.waitFor();
    await warning.getByRole('button', { name: 'No' }).click();
    expect(await page.getByRole('switch', { name: `hsts ${PLAIN}` }).getAttribute('aria-checked')).toBe('false');
  });

  it('edits an origin in the drawer', async () => {
    await openSite('ready');
    await page.locator('tr', { hasText: PLAIN }).getByRole('button', { name: '198.51.100.7:8080' }).click();
    const drawer = page.locator('.ant-drawer');
    const origin = drawer.locator('tr', { hasText: '198.51.100.7' });
    await origin.getByRole('button', { name: 'Edit' }).click();
    await modal().locator('input[id$="origin_weight"]').fill('5');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await origin.getByRole('cell', { name: '5', exact: true }).waitFor();
    await screenshot(page, 'user-site-origins');
    // The only origin cannot go: a domain keeps one enabled (401008).
    await origin.getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.locator('.ant-message-notice', { hasText: 'At least one origin must be enabled' }).waitFor();
    expect(await origin.count()).toBe(1);
  });

  it('uploads a certificate, shows what it read, and binds it to both domains', async () => {
    const cert = await selfSignedCertificate({ host: TO_BIND[0], names: ['*.e2e-ready.com'], days: 30 });
    await openSite('ready');
    await tab('Certificates');
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    await modal().locator('input#name').fill('e2e-ready wildcard');
    await page.getByTestId('certificate-chain').fill(cert.chain);
    await page.getByTestId('certificate-key').fill(cert.key);
    await modal().getByRole('button', { name: /OK/ }).click();
    const details = page.getByTestId('certificate-details');
    await details.getByText('*.e2e-ready.com').waitFor();
    await details.locator('.ant-tag', { hasText: 'Valid' }).waitFor();
    await screenshot(page, 'user-site-certificate-uploaded');
    await modal().getByRole('button', { name: 'Bind to domains' }).click();
    for (const d of TO_BIND) await chooseOption(page, page.getByTestId('bind-domains'), d);
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    const bound = [...TO_BIND].sort().join(', ');
    await page.locator('tr', { hasText: 'e2e-ready wildcard' }).getByText(bound).waitFor();

    // After a reload, the certificate lists its domains and each domain names its certificate.
    await page.reload();
    await page.locator('tr', { hasText: 'e2e-ready wildcard' }).getByText(bound).waitFor();
    await screenshot(page, 'user-site-certificates');
    await tab('Domains');
    for (const d of TO_BIND) await page.locator('tr', { hasText: d }).getByText('e2e-ready wildcard').waitFor();
    expect(await page.locator('tr', { hasText: PLAIN }).getByText('e2e-ready wildcard').count()).toBe(0);
  });

  it('adds a cache rule from a quick pick and turns gzip on, and keeps both after a reload', async () => {
    await openSite('ready');
    await tab('Cache');
    await page.getByRole('button', { name: 'Add cache rule' }).click();
    await modal().getByRole('button', { name: 'Images' }).click();
    await modal().locator('input#seconds').fill('600');
    await modal().getByText('Force', { exact: true }).click();
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.getByTestId('gzip-switch').click();
    await toast('Update Successful!');

    await page.reload();
    await tab('Cache');
    const rule = page.locator('tr', { hasText: 'jpeg' });
    for (const text of ['gif', 'png', 'bmp', '600', 'Force']) await rule.getByText(text, { exact: true }).waitFor();
    expect(await page.getByTestId('gzip-switch').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'user-site-cache');
  });

  it('adds an error page and keeps it after a reload', async () => {
    await openSite('ready');
    await tab('Error pages');
    await page.getByRole('button', { name: 'Add error page' }).click();
    await page.getByTestId('error-page-status').click();
    await page.locator('.ant-select-item-option', { hasText: '502' }).click();
    await modal().locator('textarea#body').fill('<h1>Back soon</h1>');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');

    await page.reload();
    const row = page.locator('tr', { hasText: '502' });
    await row.getByText('Show content').waitFor();
    expect(await row.getByText('<h1>Back soon</h1>').count()).toBe(1);
    await screenshot(page, 'user-site-error-pages');
  });

  it('turns HSTS on for a domain with a certificate without a warning', async () => {
    await openSite('ready');
    const hsts = page.getByRole('switch', { name: `hsts ${SECURE}` });
    await hsts.click();
    await toast('Update Successful!');
    expect(await hsts.getAttribute('aria-checked')).toBe('true');
    expect(await page.locator('.ant-popconfirm', { hasText: 'no certificate' }).count()).toBe(0);
  });

  it('shows the same screen in the default language', async () => {
    await openSite('ready');
    await switchLanguage(page, '繁體中文');
    await page.getByRole('tab', { name: '網域' }).waitFor();
    await page.locator('thead').getByText('回源協定').waitFor();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    expect(await page.getByRole('tab', { name: 'Domains' }).count()).toBe(0);
    await screenshot(page, 'user-site-domains-zh-tw');
  });
});
