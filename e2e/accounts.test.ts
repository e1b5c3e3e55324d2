import { permissionKeys } from '@edgekeep/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, launchBrowser, screenshot } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm, signInWithoutCode } from './sign-in-flow';
import { signInByMail } from './tenants';

const PASSWORD = 'e2e password 123';
const CLIENT = 'client@example.com';
const USER = 'shop@example.com';
const SUB = 'helper@example.com';
/** Made before the tests: a user of the client, and its sub-user holding a role without sites.view and accounts.view. */
const OWNER = 'owner@example.com';
const LIMITED = 'limited@example.com';
const ALL = permissionKeys('user').length;

describe('accounts, roles, API tokens and the operation log in Chromium', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let clientToken: string;
  let ownerToken: string;

  const sidebar = (page: Page) => page.locator('.ant-layout-sider');
  const cookie = async (name: string) => (await context.cookies()).find((c) => c.name === name)?.value;
  /** Opens a screen from the sidebar: the group first when its entries are hidden. */
  async function openFromMenu(page: Page, group: string, entry: string) {
    const item = sidebar(page).getByRole('menuitem', { name: entry, exact: true });
    if (!(await item.isVisible())) await sidebar(page).getByText(group, { exact: true }).click();
    await item.click();
  }
  /** A new tab in English, so the fixed messages read as the spec writes them; the other tiers' sessions stay. */
  async function englishPage() {
    const page = await context.newPage();
    await page.goto(`${server.url}/404`);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    return page;
  }
  /** A tab of the client, signed in through the form. */
  async function clientTab() {
    await context.clearCookies({ name: /^c_/ });
    const page = await englishPage();
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp });
    return page;
  }
  /** A tab of the user made before the tests (no second factor), on its dashboard. */
  async function ownerTab() {
    await context.clearCookies({ name: /^u_/ });
    const page = await englishPage();
    await signInWithoutCode(page, { baseUrl: server.url, tier: 'user', email: OWNER, password: PASSWORD });
    return page;
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    await createAccountCli(server, ['--auth', 'client', '--email', CLIENT, '--password', PASSWORD]);
    await createAccountCli(server, ['--auth', 'user', '--email', OWNER, '--password', PASSWORD, '--client', CLIENT, '--no-second-factor']);
    clientToken = await signInByMail({ server, smtp, tier: 'client', email: CLIENT, password: PASSWORD });
    ownerToken = await signInByMail({ server, smtp, tier: 'user', email: OWNER, password: PASSWORD });
    const keys = permissionKeys('user').filter((k) => k !== 'sites.view' && k !== 'accounts.view');
    const role = await api(server, 'POST', 'user/role', { token: ownerToken, body: { roleName: 'limited', permissions: keys } });
    const sub = await api(server, 'POST', 'user/account', { token: ownerToken, body: { email: LIMITED, name: 'limited', roleID: role.body.data.id, password: PASSWORD } });
    expect(sub.status).toBe(200);
    browser = await launchBrowser();
    context = browser.context;
  });
  afterEach(() => expectNoPageErrors(browser.errors));
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('a client creates a user, who sets a password through the mailed link and signs in', async () => {
    const clientPage = await clientTab();
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
    await context.clearCookies({ name: /^u_/ });
    const userPage = await context.newPage();
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
    await clientPage.close();
    await userPage.close();
  });

  it('the user makes a role without accounts.view and sites.view in the permission tree and gives it to a sub-user', async () => {
    const userPage = await ownerTab();
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
    await userPage.getByText(`${ALL - 2} chosen`, { exact: true }).waitFor();
    await screenshot(userPage, 'accounts-role-tree');
    await userPage.getByRole('button', { name: 'Submit' }).click();
    await userPage.getByText('Create Role Success !').waitFor();
    await userPage.waitForURL('**/user/userManagement/roles');
    await userPage.locator('tr', { hasText: 'helpers' }).getByText(`${ALL - 2} / ${ALL}`).waitFor();
    // Editing opens the role with its keys checked.
    await userPage.locator('tr', { hasText: 'helpers' }).getByRole('button', { name: 'Edit' }).click();
    await userPage.getByText('Edit role').waitFor();
    await userPage.getByText(`${ALL - 2} chosen`, { exact: true }).waitFor();
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
    const role = (await api(server, 'GET', 'user/roles', { token: ownerToken })).body.data.find((r: { roleName: string }) => r.roleName === 'helpers');
    expect(role.permissions).toHaveLength(ALL - 2);
    await userPage.close();
  });

  it('the user creates an API token, shown once with a copy button, uses it, and deletes it; apiDoc opens the API documentation', async () => {
    const userPage = await ownerTab();
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
    await shown.locator('.ant-typography-copy-success').waitFor();
    await screenshot(userPage, 'accounts-api-token-created');
    await userPage.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'hidden' });
    await userPage.locator('tr', { hasText: 'deploy' }).waitFor();

    const exchanged = await api(server, 'PATCH', 'user', { body: { refreshToken } });
    expect(exchanged.status).toBe(200);
    const self = await api(server, 'GET', 'user/account/self', { token: exchanged.body.data.accessToken });
    expect(self.body.data.email).toBe(OWNER);

    await userPage.locator('tr', { hasText: 'deploy' }).getByRole('button', { name: 'Remove' }).click();
    await userPage.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    await userPage.getByText('Remove Successful!').waitFor();
    await userPage.locator('tr', { hasText: 'deploy' }).waitFor({ state: 'detached' });
    expect((await api(server, 'PATCH', 'user', { body: { refreshToken } })).status).toBe(401);

    const docs = context.waitForEvent('page');
    await sidebar(userPage).getByRole('menuitem', { name: 'API documentation' }).click();
    const docsPage = await docs;
    await docsPage.waitForLoadState();
    expect(new URL(docsPage.url()).pathname).toMatch(/^\/api\/docs/);
    await docsPage.close();
    await userPage.close();
  });

  it('a role without sites.view and accounts.view hides the sites menu, the users list and their routes; the API refuses user/sites and user/accounts', async () => {
    const userPage = await ownerTab();
    const rootToken = await cookie('u_accessToken');
    expect((await api(server, 'GET', 'user/sites', { token: rootToken })).status).toBe(200);
    await sidebar(userPage).getByRole('menuitem', { name: 'Sites management' }).waitFor();
    await userPage.close();

    // Only the user tier's session is dropped: the other tiers stay signed in.
    await context.clearCookies({ name: /^u_/ });
    const subPage = await englishPage();
    await signInThroughForm(subPage, { baseUrl: server.url, tier: 'user', email: LIMITED, password: PASSWORD, smtp });
    await sidebar(subPage).getByText('User management', { exact: true }).click();
    await sidebar(subPage).getByRole('menuitem', { name: 'Roles', exact: true }).waitFor();
    const entries = await sidebar(subPage).getByRole('menuitem').allTextContents();
    expect(entries).toContain('API tokens');
    expect(entries).not.toContain('Users');
    expect(entries).toContain('Dashboard');
    expect(entries).not.toContain('Sites management');
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
    const made = await api(server, 'POST', 'client/account', { token: clientToken, body: { auth: 'user', email: 'logged@example.com', name: 'logged' } });
    expect(made.status).toBe(200);
    const clientPage = await clientTab();
    await openFromMenu(clientPage, 'User management', 'Users');
    // The accounts the owner made name it too, further right: the owner's row is the one that starts with its address.
    const ownerRow = clientPage.locator('tr', { has: clientPage.locator('td:nth-child(-n+2)', { hasText: OWNER }) });
    await ownerRow.getByRole('button', { name: 'Switch into' }).click();
    const opened = context.waitForEvent('page');
    await clientPage.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    const tab = await opened;
    await tab.waitForURL('**/user/dashboard').catch(async (err) => {
      await screenshot(clientPage, 'accounts-switch-failed');
      throw new Error(`${err}; page errors: ${browser.errors.join(' | ')}`);
    });
    await tab.getByTestId('self-summary').getByText(OWNER).waitFor();
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
    await clientPage.locator('tr', { hasText: '/api/v1/client/account' }).first().waitFor({ state: 'detached' });
    await clientPage.getByPlaceholder('URL').fill('');
    await clientPage.getByPlaceholder('URL').press('Enter');
    await created.first().getByRole('button', { name: 'Detail' }).click();
    const detail = clientPage.getByTestId('audit-detail');
    await detail.getByText('logged@example.com').waitFor();
    await screenshot(clientPage, 'accounts-operation-log-detail');
    await clientPage.close();
  });

  it('a client role without sites.view hides the client sites menu entry and its route; the API refuses client/sites', async () => {
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
    await page.close();
  });
});
