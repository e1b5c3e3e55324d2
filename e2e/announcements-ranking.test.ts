import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { licensedClient, signInByMail, type Tier } from './tenants';

const PASSWORD = 'ranking e2e password';
const line = (siteId: number, domain: string, bytesSent: number) =>
  JSON.stringify({ time: new Date().toISOString(), domain, clientIp: '198.51.100.7', country: 'TW', asn: '', method: 'GET', uri: '/', status: 200, bytesSent, bytesReceived: 100,
    requestTime: 0.01, upstreamTime: 0.005, cacheStatus: 'MISS', httpVersion: 'HTTP/1.1', referer: '', userAgent: 'curl/8', blockCause: '', siteId });

describe('domain ranking and announcements screens', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let client: string;
  let user: string;

  const signIn = (tier: Tier, email: string) => signInByMail({ server, smtp, tier, email, password: PASSWORD });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    ({ client } = await licensedClient({ server, smtp, password: PASSWORD }));
    await createAccountCli(server, ['--auth', 'user', '--email', 'shop@example.com', '--password', PASSWORD, '--client', 'ops@example.com']);
    user = await signIn('user', 'shop@example.com');
    const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'e2e' } })).body.data.id;
    const node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'local', ip: '127.0.0.1' } })).body.data.id;
    const group = (await api(server, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: 'line', nodeIDs: [node] } })).body.data.id;
    const product = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'plan', zoneID: zone, groupID: group } })).body.data.id;
    const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
    const site = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: product, userID: users.body.data[0].id } })).body.data.id;
    // The node ships its access log the way the agent does.
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: node } })).body.data;
    const enrolled = await fetch(`${server.url}/agent/v1/enroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: enrol.token, hostname: 'local', version: '0.1.0' }) });
    const { credential } = (await enrolled.json()) as { credential: string };
    const lines = [line(site, 'big.shop.test', 2_500_000), ...Array.from({ length: 4 }, () => line(site, 'busy.shop.test', 1500)), line(site, 'small.shop.test', 0)];
    const shipped = await fetch(`${server.url}/agent/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', authorization: `Node ${credential}` },
      body: gzipSync(lines.join('\n') + '\n'),
    });
    expect(shipped.status).toBe(200);
  });

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('a client writes an announcement; its user sees it and the domain ranking on the dashboard', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await browser.context.addCookies([
        { name: 'c_accessToken', value: client, url: server.url },
        { name: 'c_refreshToken', value: 'unused', url: server.url },
        { name: 'c_tokenType', value: 'Bearer', url: server.url },
      ]);
      await page.goto(`${server.url}/client/userManagement/announcementSetting`);
      await page.getByRole('button', { name: 'Add announcement' }).click();
      const modal = page.locator('.ant-modal:visible');
      await modal.locator('#title').fill('Maintenance tonight');
      await modal.locator('#content').fill('The edge restarts at 02:00.');
      await modal.getByRole('button', { name: 'Submit' }).click();
      await page.locator('.ant-message-notice', { hasText: 'Announcement added.' }).waitFor();
      const row = page.locator('tr', { hasText: 'Maintenance tonight' });
      await row.getByText('1', { exact: true }).waitFor();
      await screenshot(page, 'announcement-setting-client');
      expect((await api(server, 'GET', 'client/setting/announcements', { token: client })).body.total).toBe(1);

      await browser.context.clearCookies();
      await browser.context.addCookies([
        { name: 'u_accessToken', value: user, url: server.url },
        { name: 'u_refreshToken', value: 'unused', url: server.url },
        { name: 'u_tokenType', value: 'Bearer', url: server.url },
      ]);
      await page.goto(`${server.url}/user/dashboard`);
      await page.getByTestId('current-announcements').getByText('The edge restarts at 02:00.').waitFor();
      const ranking = page.getByTestId('domain-rank');
      const first = ranking.locator('tbody tr').first();
      await first.getByText('big.shop.test').waitFor();
      await first.getByText('2.50 mb').waitFor();
      await screenshot(page, 'domain-rank-user');
      await ranking.getByText('Requests').click();
      await ranking.getByText('Requests').click();
      await ranking.locator('tbody tr').first().getByText('busy.shop.test').waitFor();
      await ranking.locator('.ant-pagination-options .ant-select').click();
      await page.locator('.ant-select-item-option', { hasText: '25' }).click();
      expect(await page.evaluate(() => localStorage.getItem('edgekeep.domainRank.pageSize'))).toBe('25');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
