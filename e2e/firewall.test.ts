import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm, signInWithoutCode } from './sign-in-flow';
import { userWithPlan } from './tenants';

const PASSWORD = 'firewall e2e password';
const USER = 'keeper@example.com';

describe('the firewall and blocked-IP screens in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let siteId: number;
  let userToken: string;
  let clientToken: string;
  let nodeId: number;

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  /** Opens a screen of the user's console in English. */
  const open = async (path: string) => {
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/${path}`);
  };
  const openFirewallTab = async (name: string) => {
    await open('firewall');
    await page.getByRole('tab', { name, exact: true }).click();
  };
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    [clientToken, nodeId, userToken] = [plan.client, plan.node, plan.userToken];
    siteId = await plan.newSite('shop');
    await api(server, 'POST', `user/site/${siteId}/domains`, { token: userToken, body: { domains: 'www.kept-shop.com', upstreams: [{ host: '198.51.100.7' }] } });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('adds two blacklist entries in batch, refuses a duplicate, adds a user-agent rule, closes and removes an entry', async () => {
    await open('dashboard');
    await page.locator('.ant-layout-sider').getByText('Firewall', { exact: true }).click();
    await page.waitForURL('**/user/firewall**');
    await page.getByRole('tab', { name: 'Blacklist', exact: true }).waitFor();
    await page.getByTestId('add-blacklist').click();
    await page.getByTestId('ips-input').fill('203.0.113.5\n203.0.113 .6');
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText('Wrong Fromat!').waitFor();
    await page.getByTestId('ips-input').fill('203.0.113.5\n198.51.100.0/24');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.locator('tr', { hasText: '203.0.113.5' }).waitFor();
    await page.locator('tr', { hasText: '198.51.100.0/24' }).waitFor();
    await page.getByText('2 / 2').first().waitFor();
    await screenshot(page, 'firewall-blacklist');

    await page.getByTestId('add-blacklist').click();
    await page.getByTestId('ips-input').fill('203.0.113.5');
    await modal().getByRole('button', { name: /OK/ }).click();
    const failure = page.locator('.ant-modal:visible', { hasText: 'multiple error' });
    await failure.getByText('203.0.113.5').waitFor();
    await failure.getByRole('button').last().click();
    await modal().getByText('Data already exists! 203.0.113.5').waitFor();
    await screenshot(page, 'firewall-duplicate');
    await modal().getByRole('button', { name: /Cancel/ }).click();
    await page.locator('.ant-modal:visible').first().waitFor({ state: 'hidden' });

    await page.locator('tr', { hasText: '203.0.113.5' }).locator('.ant-switch').click();
    await toast('Update Successful!');
    await page.locator('tr', { hasText: '203.0.113.5' }).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: /OK/ }).click();
    await toast('Remove Successful!');
    await page.locator('tr', { hasText: '203.0.113.5' }).waitFor({ state: 'detached' });
    const list = await api(server, 'GET', `user/site/${siteId}/firewall/setting/blacklists`, { token: userToken });
    expect(list.body.data).toMatchObject([{ ip: '198.51.100.0/24', enabled: true }]);

    await page.getByRole('tab', { name: 'User agents' }).click();
    await page.getByTestId('add-userAgents').click();
    await page.getByTestId('field-userAgentRegex').fill('(?i)badbot');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.locator('tr', { hasText: '(?i)badbot' }).waitFor();
    await screenshot(page, 'firewall-user-agents');
    const uas = await api(server, 'GET', `user/site/${siteId}/firewall/setting/userAgents`, { token: userToken });
    expect(uas.body.data).toMatchObject([{ userAgentRegex: '(?i)badbot', urlRegex: '', blockType: 'deny', enabled: true }]);
  });

  it('shows the anti-CC tab and the regions tab', async () => {
    await openFirewallTab('Anti-CC');
    await page.getByTestId('add-anticc').waitFor();
    await screenshot(page, 'firewall-anticc');
    await page.getByRole('tab', { name: 'Regions', exact: true }).click();
    await page.getByTestId('add-geos').click();
    await chooseOption(page, page.getByTestId('field-geoIDs'), '(DE)', { search: 'DE' });
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.locator('tr', { hasText: 'Germany' }).waitFor();
    await screenshot(page, 'firewall-regions');
    const geos = await api(server, 'GET', `user/site/${siteId}/firewall/setting/geos`, { token: userToken });
    expect(geos.body.data).toMatchObject([{ geoIDs: ['DE'], isBlack: true, enabled: true }]);
  });

  it('adds a layer-4 region rule on the layer-4 regions tab', async () => {
    await openFirewallTab('Layer-4 regions');
    await page.getByTestId('add-l4-positions').click();
    await chooseOption(page, page.getByTestId('field-geoIDs'), '(JP)', { search: 'JP' });
    await modal().getByTestId('field-port').fill('2222');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.locator('tr', { hasText: 'Japan' }).waitFor();
    await screenshot(page, 'firewall-l4-positions');
    const positions = await api(server, 'GET', `user/site/${siteId}/firewall/l4/positions`, { token: userToken });
    expect(positions.body.data).toMatchObject([{ geoIDs: ['JP'], isBlack: true, port: 2222, enabled: true }]);
  });

  it('opens the blocked IP list', async () => {
    await open('dashboard');
    await page.locator('.ant-layout-sider').getByText('Sites management').click();
    await page.locator('.ant-layout-sider').getByText('Blocked IPs').click();
    await page.waitForURL('**/user/sitesManagement/blockList');
    await page.getByTestId('unblock-all').waitFor();
    await screenshot(page, 'block-list');
    expect(await page.locator('.ant-table-placeholder').count()).toBe(1);
  });

  it('unblocks every address from the client block list after a confirmation', async () => {
    // The node reports a block the way the agent does.
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: clientToken, body: { id: nodeId } })).body.data;
    const enrolled = await fetch(`${server.url}/agent/v1/enroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: enrol.token, hostname: 'edge-1', version: '0.1.0' }) });
    const { credential } = (await enrolled.json()) as { credential: string };
    const report = { version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, cpuPercent: 1, memory: { totalBytes: 1, usedBytes: 1 }, disk: { totalBytes: 1, usedBytes: 1 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [], uptimeSeconds: 1 };
    const blocked = [{ siteId, ip: '203.0.113.77', cause: 'waf', expiresAt: Math.floor(Date.now() / 1000) + 600 }];
    const reported = await fetch(`${server.url}/agent/v1/report`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Node ${credential}` }, body: JSON.stringify({ ...report, blocked }) });
    expect(reported.status).toBe(200);
    const client = await freshPage(browser.context, server.url);
    await client.evaluate(() => localStorage.setItem('language', 'en_US'));
    await signInThroughForm(client, { baseUrl: server.url, tier: 'client', email: 'ops@example.com', password: PASSWORD, smtp });
    await client.goto(`${server.url}/client/nodeManage/blockList`);
    await client.locator('tr', { hasText: '203.0.113.77' }).waitFor();
    await client.getByTestId('unblock-all').click();
    await client.locator('.ant-popconfirm:visible').getByText('Unblock every address on all your sites?').waitFor();
    await screenshot(client, 'client-block-list-unblock-all');
    await client.locator('.ant-popconfirm:visible').getByRole('button', { name: /OK/ }).click();
    await waitForToast(client, 'Update Successful!');
    await client.locator('tr', { hasText: '203.0.113.77' }).waitFor({ state: 'detached' });
    expect((await api(server, 'GET', 'client/blockIPs', { token: clientToken })).body.total).toBe(0);
    await client.close();
  });
});
