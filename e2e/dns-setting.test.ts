import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { powerDnsInstalled, startPowerDns, type PowerDns } from '../apps/api/test/powerdns';
import { freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const CLIENT = 'dns-client@example.com';

(powerDnsInstalled() ? describe : describe.skip)('the DNS setting screen in Chromium, against a real PowerDNS', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let pdns: PowerDns;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;

  const englishPage = async () => {
    const page = await freshPage(context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    return page;
  };

  beforeAll(async () => {
    pdns = await startPowerDns();
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, CNAME_DOMAIN: 'cdn.e2e.test', DNS_RESOLVERS: pdns.address });
    await createAccountCli(server, ['--auth', 'client', '--email', CLIENT, '--password', PASSWORD]);
    browser = await launchBrowser();
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await pdns?.stop();
  });

  it('a root client without a DNS type lands on the screen, tests and saves PowerDNS, then lands on the dashboard', async () => {
    const page = await englishPage();
    expect(await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp })).toBe('/client/systemManagement/dnsSetting');
    await page.getByTestId('dns-not-set').waitFor();
    await page.locator('#apiUrl').fill(pdns.apiUrl);
    // A wrong key: the test call fails with the catalogue's message and nothing is stored.
    await page.locator('#apiKey').fill('not-the-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.locator('.ant-message-notice', { hasText: 'Invalid DNS setting' }).first().waitFor();
    await page.locator('#apiKey').fill(pdns.apiKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await waitForToast(page, 'Connection Success!');
    await screenshot(page, 'dns-setting-tested');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForToast(page, 'Set Success!');
    await page.getByText('Unprocessed tasks').waitFor();
    await page.getByText('Leave empty to keep the stored key.').waitFor();
    expect(await page.getByTestId('dns-not-set').count()).toBe(0);
    await screenshot(page, 'dns-setting-saved');

    const again = await englishPage();
    expect(await signInThroughForm(again, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp })).toBe('/client/dashboard');
  });

  it('the CNAME list adds a domain, which the provider then serves as a zone', async () => {
    const page = await englishPage();
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp });
    await page.goto(`${server.url}/client/systemManagement/cname`);
    await page.getByRole('button', { name: 'Add CNAME domain' }).click();
    await topModal(page).locator('#domain').fill('Edge.Example.NET');
    await topModal(page).getByRole('button', { name: 'Submit' }).click();
    await waitForToast(page, 'Create Successful!');
    await page.locator('tr', { hasText: 'edge.example.net' }).waitFor();
    await screenshot(page, 'dns-cname-list');
    await expect
      .poll(async () => {
        const res = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones`, { headers: { 'X-API-Key': pdns.apiKey } });
        return ((await res.json()) as { name: string }[]).map((z) => z.name);
      })
      .toContain('edge.example.net.');
  });
});
