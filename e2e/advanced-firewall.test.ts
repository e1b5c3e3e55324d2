import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { licensedClient } from './tenants';

const PASSWORD = 'waf e2e password';
const USER = 'guard@example.com';

describe('the advanced firewall and anti-CC screens in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let siteId: number;
  let userToken: string;

  const toast = (text: string) => waitForToast(page, text);
  const modal = () => topModal(page);
  /** Opens a select by its test id and picks the option with exactly this label. */
  const choose = async (testId: string, label: string) => {
    await page.getByTestId(testId).click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
    await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    await page.getByTestId(testId).getByText(label, { exact: true }).waitFor();
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const { client } = await licensedClient({ server, smtp, password: PASSWORD });
    await createAccountCli(server, ['--auth', 'user', '--email', USER, '--password', PASSWORD, '--client', 'ops@example.com', '--no-second-factor']);
    const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'e2e' } })).body.data.id;
    const node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'edge-1', ip: '127.0.0.1' } })).body.data.id;
    const group = (await api(server, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: 'line', nodeIDs: [node] } })).body.data.id;
    const product = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'Starter plan', zoneID: zone, groupID: group } })).body.data.id;
    const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
    siteId = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: product, userID: users.body.data[0].id } })).body.data.id;
    const step1 = await api(server, 'POST', 'user/login', { body: { account: USER, password: PASSWORD } });
    userToken = (await api(server, 'POST', 'user/code', { body: { account: USER, onePassKey: step1.body.data.onePassKey, code: step1.body.data.code } })).body.data.accessToken;
    await api(server, 'POST', `user/site/${siteId}/domains`, { token: userToken, body: { domains: 'www.guarded-shop.com', upstreams: [{ host: '198.51.100.7' }] } });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${server.url}/user/login`);
    await page.locator('#account').fill(USER);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/user/dashboard');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('builds a module with a two-condition rule, refuses a runaway regex, and assigns the module to a domain', async () => {
    await page.locator('.ant-layout-sider').getByText('Advanced firewall').click();
    await page.waitForURL('**/user/advancedFirewall');
    await page.getByText('No rule module yet').waitFor();
    await page.getByTestId('add-module').click();
    await page.getByTestId('module-name').fill('Edge rules');
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');

    await page.getByTestId('add-rule').click();
    await page.getByTestId('rule-name').fill('Bad bots');
    await choose('condition-0-field', 'User agent');
    await choose('condition-0-operator', 'contains');
    await page.getByTestId('condition-0-value').fill('BadBot');
    await page.getByTestId('add-condition').click();
    await choose('condition-1-field', 'Method');
    await choose('condition-1-operator', 'in');
    await page.getByTestId('condition-1').locator('input').last().fill('DELETE');
    await page.keyboard.press('Enter');
    await modal().getByText('or', { exact: true }).click();
    await choose('rule-action', 'Drop and blacklist');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' }).catch(() => undefined);
    await page.waitForTimeout(400);
    await screenshot(page, 'advanced-firewall-rule-builder');
    await page.getByTestId('rule-save').click();
    await toast('Create Successful!');

    await page.getByTestId('add-rule').click();
    await page.getByTestId('rule-name').fill('Runaway');
    await page.getByTestId('condition-0-value').fill('(a+)+$');
    await modal().getByText('Regular expression').click();
    await page.getByTestId('rule-save').click();
    await modal().getByText(/This regular expression is refused: a nested quantifier/).waitFor();
    await screenshot(page, 'advanced-firewall-regex-refused');
    await modal().getByRole('button', { name: /Cancel/ }).click();

    await page.getByRole('button', { name: 'Assign to domains' }).click();
    await page.getByTestId('assign-domains').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'www.guarded-shop.com' }).click();
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Update Successful!');
    await page.locator('.ant-tag', { hasText: 'www.guarded-shop.com' }).waitFor();
    await page.getByText('DELETE').first().waitFor();
    await screenshot(page, 'advanced-firewall');

    const modules = await api(server, 'GET', `user/site/${siteId}/module/luaAcls`, { token: userToken });
    expect(modules.body.data).toMatchObject([{ name: 'Edge rules', ruleCount: 1, domains: [{ name: 'www.guarded-shop.com' }] }]);
    const rules = await api(server, 'GET', `user/site/${siteId}/module/luaAcl/${modules.body.data[0].id}/rules`, { token: userToken });
    expect(rules.body.data).toMatchObject([
      {
        name: 'Bad bots', logic: 'or', action: 'dropBlacklist', enabled: true,
        conditions: [{ field: 'userAgent', operator: 'contains', value: 'BadBot' }, { field: 'method', operator: 'in', value: ['DELETE'] }],
      },
    ]);
  });

  it('adds an anti-CC rule with its protection mode', async () => {
    await page.locator('.ant-layout-sider').getByText('Firewall', { exact: true }).click();
    await page.waitForURL('**/user/firewall**');
    await page.getByRole('tab', { name: 'Anti-CC' }).click();
    await page.getByTestId('add-anticc').click();
    await page.getByTestId('anticc-url').fill('(x|xy)*');
    await modal().getByRole('button', { name: /OK/ }).click();
    await modal().getByText(/This regular expression is refused/).waitFor();
    await page.getByTestId('anticc-url').fill('^/login');
    await modal().locator('.ant-select').last().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Slider captcha"]').click();
    await modal().getByRole('button', { name: /OK/ }).click();
    await toast('Create Successful!');
    await page.locator('tr', { hasText: '^/login' }).getByText('Slider captcha').waitFor();
    await screenshot(page, 'anticc');
    const list = await api(server, 'GET', `user/site/${siteId}/firewall/setting/anticcs`, { token: userToken });
    expect(list.body.data).toMatchObject([{ urlRegex: '^/login', type: 5, seconds: 10, times: 60, enabled: true }]);
  });
});
