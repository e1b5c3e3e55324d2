import fs from 'node:fs';
import type { Tier } from '@edgekeep/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, launchBrowser, screenshot, waitForTextOf, waitForValue } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';

const PASSWORD = 'e2e password 123';
const ADMIN = 'root@example.com';
const CLIENT = 'client@example.com';

describe('licenses through the console: issue online, see usage, the offline round trip', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: Page;
  let client: Page;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD });
    await createAccountCli(server, ['--auth', 'client', '--email', CLIENT, '--password', PASSWORD]);
    browser = await launchBrowser();
    await browser.context.clearCookies();
    admin = await openAs('admin', ADMIN);
    client = await openAs('client', CLIENT);
  });
  afterEach(() => expectNoPageErrors(browser.errors));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('admin creates a license and issues it to the client; the client sees it with its limits', async () => {
    await use(admin);
    await admin.goto(`${server.url}/admin/licenses`);
    await admin.locator('.ant-table .ant-empty').waitFor();
    await admin.getByRole('button', { name: 'Create license' }).click();
    const form = admin.getByTestId('license-form');
    await form.locator('#siteLimit').fill('5');
    await form.locator('#domainLimit').fill('20');
    await admin.getByRole('button', { name: 'Submit' }).click();
    await admin.getByText('Required Field!').waitFor();
    await form.locator('#name').fill('Gold plan');
    await form.getByText('Layer 7 + 4').click();
    await admin.getByRole('button', { name: 'Submit' }).click();
    await admin.getByText('Create Successful!').waitFor();
    const row = admin.locator('.ant-table-row', { hasText: 'Gold plan' });
    await row.waitFor();
    // The terms a person does not scan are in the row's detail, one click away.
    expect(await row.textContent()).not.toContain('Layer 7 + 4');
    await row.locator('.ant-table-row-expand-icon').click();
    const detail = row.locator('xpath=following-sibling::tr[1][contains(@class, "ant-table-expanded-row")]');
    await detail.getByText('Layer 7 + 4').waitFor();
    await detail.locator('.ant-tag', { hasText: 'Unlimited' }).nth(3).waitFor();
    expect(await detail.locator('.ant-tag', { hasText: 'Unlimited' }).count()).toBe(4);

    await row.getByRole('button', { name: 'Issue' }).click();
    const issue = admin.locator('.ant-modal', { hasText: 'Issue Gold plan to a client' });
    await issue.locator('.ant-select').click();
    await admin.locator('.ant-select-item-option', { hasText: CLIENT }).click();
    await issue.getByRole('button', { name: 'Issue' }).click();
    await admin.getByText('Set Success!').waitFor();
    const key = await admin.getByTestId('license-key').textContent();
    expect(key).toMatch(/^EK1\./);
    await screenshot(admin, 'licenses-issued-key');
    await closeKey();
    await row.getByText('Not issued').waitFor({ state: 'detached' });
    await screenshot(admin, 'licenses-list');

    await row.getByRole('button', { name: 'Orders' }).click();
    const orders = admin.getByTestId('orders-form');
    await admin.getByRole('button', { name: 'Add an order' }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await orders.getByText('Required Field!').waitFor();
    await orders.getByPlaceholder('Order number').fill('PO-2026-001');
    await orders.getByPlaceholder('Amount').fill('1200');
    await screenshot(admin, 'license-orders');
    await admin.getByRole('button', { name: 'Save' }).click();
    await orders.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Orders' }).click();
    await waitForValue(orders.getByPlaceholder('Order number'), 'PO-2026-001');
    await admin.keyboard.press('Escape');
    await orders.waitFor({ state: 'hidden' });

    await use(client);
    await client.goto(`${server.url}/client/systemManagement/systemSetting`);
    const mine = client.getByTestId('my-license');
    await mine.getByText('Gold plan').waitFor();
    await mine.getByText('Layer 7 + 4').waitFor();
    expect(await client.getByTestId('days-left').textContent()).toBe('365 days');
    expect(await client.getByTestId('usage-site').textContent()).toContain('0 / 5');
    expect(await client.getByTestId('usage-domain').textContent()).toContain('0 / 20');
    expect(await client.getByTestId('usage-node').textContent()).toContain('0 / Unlimited');
    await screenshot(client, 'client-system-setting-online');

    await use(admin);
    await admin.goto(`${server.url}/admin/dashboard`);
    await admin.getByTestId('stat-clients').getByText('1', { exact: true }).waitFor();
    await admin.getByTestId('stat-issued').getByText('1', { exact: true }).waitFor();
    await admin.locator('.ant-table-row', { hasText: CLIENT }).getByText('Gold plan').waitFor();
    await screenshot(admin, 'admin-dashboard');
  });

  it('offline: the client registers, the admin issues from the request, the client activates and updates the key', async () => {
    await use(client);
    await client.goto(`${server.url}/client/systemManagement/systemSetting`);
    await client.getByRole('button', { name: 'Submit' }).first().click();
    await client.getByText('Required Field!').first().waitFor();
    await client.getByTestId('activate-key').fill('EK1.a.b.c');
    await client.getByTestId('activate-submit').click();
    await client.getByText('Invalid license key').waitFor();
    expect(await client.getByTestId('activate-key').inputValue(), 'the typed key stays').toBe('EK1.a.b.c');

    const saved = client.waitForEvent('download');
    await client.getByTestId('make-request').click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(/^edgekeep-registration-\d+\.req$/);
    const request = fs.readFileSync((await file.path())!, 'utf8');
    expect(request).toMatch(/^EKREQ1\./);
    expect(await client.getByTestId('request-text').textContent()).toBe(request);

    await use(admin);
    await admin.goto(`${server.url}/admin/offlineLicense`);
    await admin.getByRole('button', { name: 'Issue from a registration request' }).click();
    await admin.getByTestId('registration-request').fill(request);
    const form = admin.getByTestId('license-form');
    await form.locator('#name').fill('Offline plan');
    await form.locator('#days').fill('100');
    await form.locator('#nodeLimit').fill('3');
    await admin.getByRole('button', { name: 'Submit' }).click();
    await admin.getByText('Create Successful!').waitFor();
    const key = (await admin.getByTestId('license-key').textContent())!;
    expect(key).toMatch(/^EK1\./);
    await closeKey();
    await admin.locator('.ant-table-row', { hasText: 'Offline plan' }).getByRole('button', { name: 'Unregister' }).waitFor();
    await screenshot(admin, 'offline-licenses-list');

    await use(client);
    await client.getByTestId('activate-key').fill(key);
    await client.getByTestId('activate-submit').click();
    await client.getByText('Set Success!').waitFor();
    await client.getByTestId('request-text').waitFor({ state: 'detached' });
    const mine = client.getByTestId('my-license');
    await mine.getByText('Offline plan').waitFor();
    expect(await client.getByTestId('days-left').textContent()).toBe('100 days');
    expect(await client.getByTestId('usage-node').textContent()).toContain('0 / 3');

    await use(admin);
    const row = admin.locator('.ant-table-row', { hasText: 'Offline plan' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = admin.getByTestId('license-form');
    await edit.locator('#days').fill('465');
    await admin.getByRole('button', { name: 'Submit' }).click();
    await admin.getByText('Update Successful!').waitFor();
    const renewed = (await admin.getByTestId('license-key').textContent())!;
    expect(renewed).not.toBe(key);
    await closeKey();

    await use(client);
    await client.getByTestId('update-key').fill(renewed);
    await client.getByTestId('update-submit').click();
    await client.getByText('Update Successful!').waitFor();
    await waitForTextOf(client, 'days-left', '465 days');
    await screenshot(client, 'client-system-setting-offline');

    await use(admin);
    await row.getByRole('button', { name: 'Unregister' }).click();
    await admin.getByRole('button', { name: 'Yes' }).click();
    await admin.getByText('Set Success!').waitFor();
    await use(client);
    await client.reload();
    await client.getByText('License does not exist').waitFor();
    await client.getByText('This account holds no license yet.').waitFor();
    // The released key no longer answers any registration: 900001 through the console's error handling.
    await client.getByTestId('activate-key').fill(renewed);
    await client.getByTestId('activate-submit').click();
    await client.getByText('Illegal license').waitFor();
    await screenshot(client, 'client-system-setting-no-license');
  });

  /** Closes the key modal and waits until it is gone. */
  async function closeKey() {
    // a click that lands while the modal still opens can go unheard (seen once in CI): click again until it is gone
    for (let i = 0; ; i++) {
      await admin.locator('.ant-modal', { hasText: 'License key of' }).getByRole('button', { name: 'Close' }).click();
      const gone = await admin.getByTestId('license-key').waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, () => false);
      if (gone) return;
      if (i === 3) throw new Error('the license key modal did not close');
    }
  }

  /** The tab in use comes to the front: a background tab's animation frames are paused, and modals would not close. */
  async function use(page: Page) {
    await page.bringToFront();
    return page;
  }


  /** Signs in through the API and opens the console with the spec's switchUser entry, in English; sessions are per tier. */
  async function openAs(tier: Tier, email: string) {
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password: PASSWORD } });
    const code = await smtp.waitFor(email, /code is (\d{6})/, before);
    const tokens = (await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } })).body.data;
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/404`);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/${tier}/switchUser?${new URLSearchParams(tokens)}`);
    await page.waitForURL(`**/${tier}/dashboard`);
    return page;
  }
});
