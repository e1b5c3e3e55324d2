import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { signInWithoutCode } from './sign-in-flow';
import { userWithPlan } from './tenants';

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
    await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' });
    await page.getByTestId(testId).getByText(label, { exact: true }).waitFor();
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    userToken = plan.userToken;
    siteId = await plan.newSite('shop');
    await api(server, 'POST', `user/site/${siteId}/domains`, { token: userToken, body: { domains: 'www.guarded-shop.com', upstreams: [{ host: '198.51.100.7' }] } });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD });
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
    await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' });
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
