import { permissionKeys } from '@edgekeep/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const CLIENT = 'client@example.com';
const USER = 'shop@example.com';
const SUB = 'helper@example.com';
const ALL = permissionKeys('user').length;

describe('accounts, roles, API tokens and the operation log in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  /** The client's tab stays open through the tests; the user's tab is the last one signed in on the user tier. */
  let clientPage: Page;
  let userPage: Page;

  const sidebar = (page: Page) => page.locator('.ant-layout-sider');
  const cookie = async (name: string) => (await context.cookies()).find((c) => c.name === name)?.value;
  /** Opens a screen from the sidebar: the group first when its entries are hidden. */
  async function openFromMenu(page: Page, group: string, entry: string) {
    const item = sidebar(page).getByRole('menuitem', { name: entry, exact: true });
    if (!(await item.isVisible())) await sidebar(page).getByText(group, { exact: true }).click();
    await item.click();
  }
  /** English, so the fixed messages read as the spec writes them. */
  async function englishPage() {
    const page = await freshPage(context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    return page;
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    await createAccountCli(server, ['--auth', 'client', '--email', CLIENT, '--password', PASSWORD]);
    browser = await launchBrowser();
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('a client creates a user, who sets a password through the mailed link and signs in', async () => {
    clientPage = await englishPage();
    await signInThroughForm(clientPage, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp });
    await openFromMenu(clientPage, 'User management', 'Users');
    await clientPage.waitForURL('**/client/userManagement/users');

    const mailsBefore = smtp.mails.length;
    await clientPage.getByRole('button', { name: 'Create account' }).click();
    const form = clientPage.getByTestId('account-form');
    await form.locator('#email').fill(USER);
    await form.locator('#name').fill('shop');
    await screenshot(clientPage, 'accounts-create-user');
    await clientPage.getByRole('button', { name: 'Submit' }).click();
    await clientPage.getByText('Create User Successful!').waitFor();
    const row = clientPage.locator('tr', { hasText: USER });
    await row.waitFor();
    expect(await row.textContent()).toContain(CLIENT); // created by the client, below it
    await screenshot(clientPage, 'accounts-users-list');

    await smtp.waitFor(USER, /verifyMail\?token=([\w%-]+)/, mailsBefore);
    // Resending mails a new link; the first one stops working.
    const resentAfter = smtp.mails.length;
    await row.getByRole('button', { name: 'More' }).click();
    await clientPage.getByRole('menuitem', { name: 'Resend mail' }).click();
    await clientPage.getByText('Resend Email Successful!').waitFor();
    const token = await smtp.waitFor(USER, /verifyMail\?token=([\w%-]+)/, resentAfter);
    userPage = await context.newPage();
    await userPage.goto(`${server.url}/user/verifyMail?token=${token}`);
    await userPage.waitForURL('**/user/login/createPassword?**');
    await userPage.locator('#password').fill(PASSWORD);
    await userPage.locator('#confirmPassword').fill(PASSWORD);
    await userPage.locator('button[type=submit]').click();
    await userPage.getByText('Create Password Successful!').waitFor();
    await userPage.waitForURL('**/user/login');
    expect(await signInThroughForm(userPage, { baseUrl: server.url, tier: 'user', email: USER, password: PASSWORD, smtp })).toBe('/user/dashboard');

    // With the mail confirmed, there is nothing to resend.
    await clientPage.reload();
    await clientPage.locator('tr', { hasText: USER }).getByRole('button', { name: 'More' }).click();
    await clientPage.getByRole('menuitem', { name: 'Edit password' }).waitFor();
    expect(await clientPage.getByRole('menuitem', { name: 'Resend mail' }).count()).toBe(0);
    await clientPage.keyboard.press('Escape');
  });

  it('the user makes a role without accounts.view and sites.view in the permission tree and gives it to a sub-user', async () => {
    await openFromMenu(userPage, 'User management', 'Roles');
    await userPage.waitForURL('**/user/userManagement/roles');
    await userPage.getByRole('button', { name: 'Create role' }).click();
    await userPage.waitForURL('**/user/userManagement/roles/create');
    await userPage.locator('#roleName').fill('helpers');
    const tree = userPage.getByTestId('permission-tree');
    const box = (label: string) => tree.locator('.ant-tree-treenode', { has: userPage.locator('.ant-tree-title', { hasText: new RegExp(`^${label}$`) }) }).locator('.ant-tree-checkbox');
    for (const group of ['Dashboard', 'Sites', 'Data analysis', 'Traffic packages', 'System', 'User management']) await box(group).click();
    await box('View sites').click();
    await box('View accounts').click();
    await expect.poll(() => userPage.getByText(/\d+ chosen/).textContent()).toBe(`${ALL - 2} chosen`);
    await screenshot(userPage, 'accounts-role-tree');
    await userPage.getByRole('button', { name: 'Submit' }).click();
    await userPage.getByText('Create Role Success !').waitFor();
    await userPage.waitForURL('**/user/userManagement/roles');
    await userPage.locator('tr', { hasText: 'helpers' }).getByText(`${ALL - 2} / ${ALL}`).waitFor();
    // Editing opens the role with its keys checked.
    await userPage.locator('tr', { hasText: 'helpers' }).getByRole('button', { name: 'Edit' }).click();
    await userPage.getByText('Edit role').waitFor();
    await expect.poll(() => userPage.getByText(/\d+ chosen/).textContent()).toBe(`${ALL - 2} chosen`);
    expect(await box('View sites').getAttribute('class')).not.toContain('checked');
    await userPage.getByRole('button', { name: 'Cancel' }).click();
    await userPage.waitForURL('**/user/userManagement/roles');

    await openFromMenu(userPage, 'User management', 'Users');
    await userPage.waitForURL('**/user/userManagement/usersList');
    await userPage.getByRole('button', { name: 'Create account' }).click();
    const form = userPage.getByTestId('account-form');
    await form.locator('#email').fill(SUB);
    await form.locator('#name').fill('helper');
    await form.locator('#password').fill(PASSWORD);
    await form.locator('#roleID').click();
    await userPage.locator('.ant-select-item-option', { hasText: 'helpers' }).click();
    await userPage.getByRole('button', { name: 'Submit' }).click();
    await userPage.getByText('Create User Successful!').waitFor();
    await userPage.locator('tr', { hasText: SUB }).getByText('helpers').waitFor();
  });

  it('the user creates an API token, shown once with a copy button, uses it, and deletes it; apiDoc opens the API documentation', async () => {
    await openFromMenu(userPage, 'User management', 'API tokens');
    await userPage.waitForURL('**/user/userManagement/apiTokenSetting');
    await userPage.getByRole('button', { name: 'Create token' }).click();
    await userPage.getByTestId('api-token-form').locator('#name').fill('deploy');
    await userPage.getByRole('button', { name: 'Submit' }).click();
    const shown = userPage.getByTestId('created-token');
    await shown.waitFor();
    const refreshToken = (await shown.textContent())!.trim();
    expect(refreshToken).toMatch(/^ek_/);
    await shown.getByRole('button').click(); // the copy button
    await userPage.waitForTimeout(300);
    await screenshot(userPage, 'accounts-api-token-created');
    await userPage.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'hidden' });
    await userPage.locator('tr', { hasText: 'deploy' }).waitFor();

    const exchanged = await api(server, 'PATCH', 'user', { body: { refreshToken } });
    expect(exchanged.status).toBe(200);
    const self = await api(server, 'GET', 'user/account/self', { token: exchanged.body.data.accessToken });
    expect(self.body.data.email).toBe(USER);

    await userPage.locator('tr', { hasText: 'deploy' }).getByRole('button', { name: 'Remove' }).click();
    await userPage.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    await userPage.getByText('Remove Successful!').waitFor();
    await expect.poll(() => userPage.locator('tr', { hasText: 'deploy' }).count()).toBe(0);
    expect((await api(server, 'PATCH', 'user', { body: { refreshToken } })).status).toBe(401);

    const docs = context.waitForEvent('page');
    await sidebar(userPage).getByRole('menuitem', { name: 'API documentation' }).click();
    const docsPage = await docs;
    await docsPage.waitForLoadState();
    expect(new URL(docsPage.url()).pathname).toMatch(/^\/api\/docs/);
    await docsPage.close();
  });

  it('a role without sites.view and accounts.view hides the sites menu, the users list and their routes; the API refuses user/sites and user/accounts', async () => {
    const rootToken = await cookie('u_accessToken');
    expect((await api(server, 'GET', 'user/sites', { token: rootToken })).status).toBe(200);
    await sidebar(userPage).getByRole('menuitem', { name: 'Sites management' }).waitFor();

    // Only the user tier's session is dropped: the client stays signed in for the last test.
    await context.clearCookies({ name: /^u_/ });
    const subPage = await context.newPage();
    await signInThroughForm(subPage, { baseUrl: server.url, tier: 'user', email: SUB, password: PASSWORD, smtp });
    await sidebar(subPage).getByText('User management', { exact: true }).click();
    await sidebar(subPage).getByRole('menuitem', { name: 'Roles', exact: true }).waitFor();
    const entries = await sidebar(subPage).getByRole('menuitem').allTextContents();
    expect(entries).toContain('API tokens');
    expect(entries).not.toContain('Users');
    expect(entries).toContain('Dashboard');
    expect(entries).not.toContain('Sites management');
    await subPage.waitForTimeout(400); // the submenu's opening animation
    await screenshot(subPage, 'accounts-sub-user-menu');

    await subPage.goto(`${server.url}/user/sitesManagement/sites`);
    await subPage.getByText('Page not found').waitFor();

    await subPage.goto(`${server.url}/user/userManagement/usersList`);
    await subPage.getByText('Page not found').waitFor();
    await subPage.goto(`${server.url}/user/userManagement`);
    await subPage.waitForURL('**/user/userManagement/userInformation');

    const subToken = await cookie('u_accessToken');
    expect(subToken).not.toBe(rootToken);
    const sites = await api(server, 'GET', 'user/sites', { token: subToken });
    expect([sites.status, sites.body.code]).toEqual([403, 101018]);
    const accounts = await api(server, 'GET', 'user/accounts', { token: subToken });
    expect([accounts.status, accounts.body.code]).toEqual([403, 101018]);
    expect((await api(server, 'GET', 'user/roles', { token: subToken })).status).toBe(200);
    await subPage.close();
  });

  it('the client switches into the user in a new tab, and the operation log shows both calls with their details', async () => {
    await clientPage.locator('tr', { hasText: USER }).getByRole('button', { name: 'Switch into' }).click();
    const opened = context.waitForEvent('page');
    await clientPage.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    const tab = await opened;
    await tab.waitForURL('**/user/dashboard').catch(async (err) => {
      await screenshot(clientPage, 'accounts-switch-failed');
      throw new Error(`${err}; page errors: ${browser.errors.join(' | ')}`);
    });
    await tab.getByTestId('self-summary').getByText(USER).waitFor();
    await tab.getByTestId('self-summary').getByText(CLIENT).waitFor(); // opened by the client
    await screenshot(tab, 'accounts-switched-into-user');
    await tab.close();

    await openFromMenu(clientPage, 'User management', 'Operation log');
    await clientPage.waitForURL('**/client/userManagement/logOperation');
    const created = clientPage.locator('tr', { has: clientPage.getByRole('cell', { name: '/api/v1/client/account', exact: true }) });
    await created.first().waitFor();
    await clientPage.locator('tr', { hasText: '/api/v1/client/proxy' }).first().waitFor();
    await clientPage.getByPlaceholder('URL').fill('proxy');
    await clientPage.getByPlaceholder('URL').press('Enter');
    await clientPage.waitForURL('**/logOperation?url=proxy');
    await expect.poll(() => clientPage.locator('tr', { hasText: '/api/v1/client/account' }).count()).toBe(0);
    await clientPage.getByPlaceholder('URL').fill('');
    await clientPage.getByPlaceholder('URL').press('Enter');
    await created.first().getByRole('button', { name: 'Detail' }).click();
    const detail = clientPage.getByTestId('audit-detail');
    await detail.getByText(USER).waitFor();
    await screenshot(clientPage, 'accounts-operation-log-detail');
  });

  it('a client role without sites.view hides the client sites menu entry and its route; the API refuses client/sites', async () => {
    const clientToken = await cookie('c_accessToken');
    const keys = permissionKeys('client').filter((k) => k !== 'sites.view');
    const role = await api(server, 'POST', 'client/role', { token: clientToken, body: { roleName: 'no-sites', permissions: keys } });
    expect(role.status).toBe(200);
    const sub = await api(server, 'POST', 'client/account', {
      token: clientToken,
      body: { auth: 'client', email: 'ops@example.com', name: 'ops', password: PASSWORD, roleID: role.body.data.id },
    });
    expect(sub.status).toBe(200);

    await context.clearCookies({ name: /^c_/ });
    const page = await context.newPage();
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: 'ops@example.com', password: PASSWORD, smtp });
    await sidebar(page).getByText('Node management', { exact: true }).click();
    await sidebar(page).getByRole('menuitem', { name: 'Zones', exact: true }).waitFor();
    const entries = await sidebar(page).getByRole('menuitem').allTextContents();
    expect(entries).toContain('Products');
    expect(entries).not.toContain('Sites');
    await screenshot(page, 'accounts-sub-client-menu');
    await page.goto(`${server.url}/client/nodeManage/sitesList`);
    await page.getByText('Page not found').waitFor();

    const subToken = await cookie('c_accessToken');
    const sites = await api(server, 'GET', 'client/sites', { token: subToken });
    expect([sites.status, sites.body.code]).toEqual([403, 101018]);
    expect((await api(server, 'GET', 'client/products', { token: subToken })).status).toBe(200);
    expect((await api(server, 'GET', 'client/sites', { token: clientToken })).status).toBe(200);
    await page.close();
  });

  it('the admin area has the same screens: an admin makes a role, a sub-admin holding it, and a client that gets the mail', async () => {
    const page = await englishPage();
    await signInThroughForm(page, { baseUrl: server.url, tier: 'admin', email: 'root@example.com', password: PASSWORD, smtp });
    await openFromMenu(page, 'User management', 'Roles');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.locator('#roleName').fill('auditors');
    await page.getByTestId('permission-tree').locator('.ant-tree-treenode', { hasText: 'View the operation log' }).locator('.ant-tree-checkbox').click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Create Role Success !').waitFor();

    await openFromMenu(page, 'User management', 'Users');
    await page.waitForURL('**/admin/userManagement/users');
    const mailsBefore = smtp.mails.length;
    await page.getByRole('button', { name: 'Create account' }).click();
    const form = page.getByTestId('account-form');
    await form.locator('#auth').click();
    await page.locator('.ant-select-item-option', { hasText: 'Client' }).click();
    await form.locator('#roleID').waitFor({ state: 'detached' }); // a client made by an admin is a root: no role
    await form.locator('#email').fill('reseller@example.com');
    await form.locator('#name').fill('reseller');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Create Client Successful!').waitFor();
    expect(await smtp.waitFor('reseller@example.com', /(\/client\/verifyMail)\?token=/, mailsBefore)).toBe('/client/verifyMail');

    await page.getByRole('button', { name: 'Create account' }).click();
    await form.locator('#email').fill('auditor@example.com');
    await form.locator('#name').fill('auditor');
    await form.locator('#roleID').click();
    await page.locator('.ant-select-item-option', { hasText: 'auditors' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Create Admin Successful!').waitFor();
    const auditor = page.locator('tr', { hasText: 'auditor@example.com' });
    await auditor.getByText('auditors').waitFor();
    await auditor.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Edit password' }).click();
    const passwordForm = page.getByTestId('password-form');
    await passwordForm.locator('#password').fill(PASSWORD);
    await passwordForm.locator('#confirmPassword').fill(PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Change password successful!').waitFor();
    const step1 = await api(server, 'POST', 'admin/login', { body: { account: 'auditor@example.com', password: PASSWORD } });
    expect(step1.status).toBe(200);
    await screenshot(page, 'accounts-admin-users');
    expect(browser.errors).toEqual([]);
  });
});
