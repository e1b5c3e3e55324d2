import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, freshPage, launchBrowser, screenshot, switchLanguage } from './browser';
import { api, createAccountCli, startServer, startSmtpSink, type Server } from './harness';
import { signInByMail, type Tier } from './tenants';
import { signInThroughForm } from './sign-in-flow';

const PASSWORD = 'e2e password 123';
const CLIENT = 'ops@example.com';
const USER = 'shop@example.com';

/** Picks an option of the antd Select inside the form item holding the field `id`. */
const choose = (page: Page, id: string, option: string) => chooseOption(page, page.locator(`.ant-form-item:has(#${id}) .ant-select`).first(), option);

async function submitModal(page: Page) {
  await page.locator('.ant-modal-footer:visible .ant-btn-primary').click();
}

describe('client node management in Chromium: zone, node, line, product and a site a user sees', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  const signIn = (tier: Tier, email: string) => signInByMail({ server, smtp, tier, email, password: PASSWORD });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const made = await createAccountCli(server, ['--auth', 'client', '--email', CLIENT, '--password', PASSWORD]);
    const clientId = Number(/#(\d+)/.exec(made)![1]);
    await createAccountCli(server, ['--auth', 'user', '--email', USER, '--password', PASSWORD, '--client', CLIENT]);
    const admin = await signIn('admin', 'root@example.com');
    const terms = { name: 'e2e', days: 30, siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4', nodeMonitorSeconds: 30 };
    const license = (await api(server, 'POST', 'license', { token: admin, body: terms })).body.data.id;
    expect((await api(server, 'POST', 'license/issuing', { token: admin, body: { id: license, clientID: clientId } })).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('creates a zone with its settings, a node with its enrolment command, a line, a product and a site for a user', async () => {
    const page = await freshPage(browser.context, server.url);
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp });
    await switchLanguage(page, 'English');
    const sidebar = page.locator('.ant-layout-sider');
    await sidebar.getByText('Node management').click();
    for (const entry of ['Zones', 'Nodes', 'Virtual nodes', 'Resolution groups', 'Products', 'Sites', 'Site settings', 'Domains']) await sidebar.getByText(entry, { exact: true }).waitFor();

    /** Opens a screen from the sidebar and waits until it shows (the previous one stays while its chunk loads). */
    const open = async (label: string, path: string) => {
      await sidebar.getByText(label, { exact: true }).click();
      await page.waitForURL(`**/client/nodeManage/${path}`);
      await page.locator('.ant-card-head-title', { hasText: new RegExp(`^${label}$`) }).waitFor();
    };

    // Zones: create, a duplicate name refused with 201002, the settings forms.
    await open('Zones', 'zonesList');
    const addZone = async (name: string) => {
      await page.getByRole('button', { name: 'Create' }).click();
      await page.locator('.ant-modal #name').fill(name);
      await submitModal(page);
    };
    await addZone('taipei');
    await page.getByText('Create Successful!').waitFor();
    await page.locator('.ant-table-row', { hasText: 'taipei' }).waitFor();
    await addZone('taipei');
    await page.getByText('Zone name exists').waitFor();
    expect(await page.locator('.ant-modal #name').inputValue()).toBe('taipei');
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.ant-table-row', { hasText: 'taipei' }).getByRole('button', { name: 'Settings' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText('HTTP ports', { exact: true }).waitFor();
    const portsCard = drawer.locator('.ant-card', { hasText: 'HTTP ports' });
    await portsCard.locator('#httpPorts').fill('99999');
    await portsCard.locator('#httpPorts').press('Enter');
    await portsCard.getByRole('button', { name: 'Save' }).click();
    await drawer.getByText('Port is not valid!Please Check again!').waitFor();
    await portsCard.locator('.ant-select-selection-item', { hasText: '99999' }).locator('.ant-select-selection-item-remove').click();
    await portsCard.locator('#httpPorts').fill('8080');
    await portsCard.locator('#httpPorts').press('Enter');
    await portsCard.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Set Success!').waitFor();
    await drawer.getByRole('tab', { name: 'Nginx' }).click();
    await drawer.locator('.ant-card', { hasText: 'Nginx worker' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Set Nginx Worker Success!').waitFor();
    await drawer.locator('#keepaliveTimeout').fill('75');
    await drawer.locator('.ant-card', { hasText: 'Nginx http' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Set Nginx Http Success!').waitFor();
    await drawer.locator('.ant-card', { hasText: 'Nginx stream' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Set Nginx Stream Success!').waitFor();
    await screenshot(page, 'infra-zone-settings');
    // The IP sets of the zone: one set saved, then flushed after a confirmation.
    await drawer.getByRole('tab', { name: 'Firewall' }).click();
    const ipsets = drawer.locator('.ant-card', { hasText: 'IP sets' });
    await ipsets.getByRole('button', { name: 'Add IP set' }).click();
    await ipsets.getByPlaceholder('Set name').fill('scanners');
    await ipsets.locator('textarea').fill('203.0.113.7\n2001:db8::/64');
    // Earlier forms showed the same message: wait for this save's answer, after which the card shows the saved set.
    const saved = page.waitForResponse((r) => r.url().endsWith(`/ipset`) && r.request().method() === 'PUT');
    await ipsets.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Set Success!').first().waitFor();
    await ipsets.getByTestId('ipset-flush').click();
    // the confirmation open first: the answer is awaited from the click that sends the request, not from before it
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    const flushed = page.waitForResponse((r) => r.url().endsWith('/ipset/flush') && r.request().method() === 'DELETE');
    await confirm.getByRole('button', { name: 'OK' }).click();
    const answer = await flushed;
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data.ipset.sets).toEqual([{ name: 'scanners', ips: [] }]);
    // The card shows what the server answered: the saved set's name, its addresses flushed (the placeholder shows again).
    await ipsets.locator('textarea:placeholder-shown').waitFor();
    expect(await ipsets.getByPlaceholder('Set name').inputValue()).toBe('scanners');
    await drawer.locator('.ant-drawer-close').click();

    // Nodes: create one; it has not enrolled, so its status is unknown; the enrolment dialog shows the command.
    await open('Nodes', 'nodesList');
    await page.getByRole('button', { name: 'Create' }).click();
    await choose(page, 'zoneID', 'taipei');
    await page.locator('.ant-modal #name').fill('edge-1');
    await page.locator('.ant-modal #ip').fill('not an ip');
    await submitModal(page);
    await page.getByText('Wrong Fromat!').waitFor();
    await page.locator('.ant-modal #ip').fill('127.0.0.1');
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const nodeRow = page.locator('.ant-table-row', { hasText: 'edge-1' });
    await nodeRow.getByText('Unknown', { exact: true }).waitFor();
    await nodeRow.getByRole('button', { name: 'Actions' }).hover();
    await page.getByRole('menuitem', { name: 'Initialise', exact: true }).click();
    const enrolment = page.getByTestId('enrolment');
    await enrolment.waitFor();
    const command = await enrolment.locator('code').textContent();
    expect(command).toMatch(/^curl -fsSL http:\/\/\S+\/agent\/install\.sh .*EDGEKEEP_ENROLL_TOKEN=\S+ /);
    await enrolment.getByText('The command works until').waitFor();
    expect(await enrolment.locator('.ant-typography-copy').count()).toBe(1);
    await screenshot(page, 'infra-node-enrolment');
    await page.locator('.ant-modal-close:visible').click();
    // Actions are queued for the node and listed with their state; the system drawer waits for a first report.
    await nodeRow.getByRole('button', { name: 'Actions' }).hover();
    await page.getByRole('menuitem', { name: 'Node actions', exact: true }).click();
    const actions = page.locator('.ant-modal', { hasText: 'Actions of node edge-1' });
    await actions.getByRole('button', { name: 'Queue' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The action is queued for the node.').waitFor();
    await actions.locator('.ant-table-row', { hasText: 'Reload' }).getByText('Queued').waitFor();
    await screenshot(page, 'infra-node-actions');
    await actions.locator('.ant-modal-close').click();
    await nodeRow.getByRole('button', { name: 'Actions' }).hover();
    await page.getByRole('menuitem', { name: 'System', exact: true }).click();
    await page.locator('.ant-drawer').getByText('The node has not reported yet.').waitFor();
    await page.locator('.ant-drawer-close').click();
    // Pause and enable in batch.
    await nodeRow.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: 'Pause' }).click();
    await nodeRow.getByText('Paused', { exact: true }).waitFor();
    await nodeRow.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: 'Enable' }).click();
    await nodeRow.getByText('Unknown', { exact: true }).waitFor();
    // The columns left out of the table are in the row's detail.
    expect(await nodeRow.textContent()).not.toContain('Global setting');
    await nodeRow.locator('.ant-table-row-expand-icon').click();
    const nodeDetail = nodeRow.locator('xpath=following-sibling::tr[1][contains(@class, "ant-table-expanded-row")]');
    await nodeDetail.getByText('Cache capacity (MB, 0 uses the global setting)').waitFor();
    await nodeDetail.getByText('Global setting', { exact: true }).waitFor();
    await screenshot(page, 'infra-nodes');
    // A node whose agent reports its disk full: a red tag beside its status (free and total bytes on hover) and in its system drawer.
    const client = await signIn('client', CLIENT);
    const zoneID = (await api(server, 'GET', 'client/zones?name=taipei', { token: client })).body.data[0].id;
    const diskNode = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID, name: 'edge-disk', ip: '192.0.2.50' } })).body.data.id;
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: diskNode } })).body.data;
    const agent = (path: string, body: object, credential?: string) =>
      fetch(`${server.url}/agent/v1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(credential ? { authorization: `Node ${credential}` } : {}) }, body: JSON.stringify(body) });
    const { credential } = (await (await agent('enroll', { token: enrol.token, hostname: 'edge-disk', version: '0.1.0' })).json()) as { credential: string };
    const diskFull = { path: '/var/lib/edgekeep', freeBytes: 0, totalBytes: 4_194_304, writeError: 'ENOSPC: no space left on device, write' };
    const report = {
      version: '0.1.0', appliedRevision: null, applyError: null, nginxRunning: true, cpuPercent: 1, memory: { totalBytes: 1000, usedBytes: 500 },
      disk: { totalBytes: 4_194_304, usedBytes: 4_194_304 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [0, 0, 0], uptimeSeconds: 1, diskFull,
    };
    expect((await agent('report', report, credential)).status).toBe(200);
    const diskRow = page.locator('.ant-table-row', { hasText: 'edge-disk' });
    const diskTag = diskRow.getByTestId(`node-disk-full-${diskNode}`);
    await diskTag.waitFor(); // the list refreshes every 5 s
    expect(await diskTag.textContent()).toBe('Disk full');
    await diskTag.hover();
    await page.locator('.ant-tooltip:visible', { hasText: 'Free 0 byte of 4.19 mb' }).getByText('Last write refused: ENOSPC: no space left on device, write').waitFor();
    await screenshot(page, 'infra-node-disk-full');
    await diskRow.getByRole('button', { name: 'Actions' }).hover();
    await page.getByRole('menuitem', { name: 'System', exact: true }).click();
    await page.getByTestId('node-system').getByTestId(`node-disk-full-${diskNode}`).waitFor();
    await page.locator('.ant-drawer-close').click();
    // room again: the tag goes at the next refresh
    expect((await agent('report', { ...report, diskFull: null }, credential)).status).toBe(200);
    await diskTag.waitFor({ state: 'detached' });

    // Resolution groups of the zone: a line with the node.
    await open('Resolution groups', 'resolutionTitle');
    await page.getByTestId('lines-zone').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'taipei' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ant-modal #name').fill('asia-line');
    await choose(page, 'line', 'Asia');
    await choose(page, 'nodeIDs', 'edge-1');
    await page.locator('.ant-modal-title').click();
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const lineRow = page.locator('.ant-table-row', { hasText: 'asia-line' });
    await lineRow.getByText('Asia', { exact: true }).waitFor();
    await lineRow.getByText('edge-1 (127.0.0.1)').waitFor();
    await screenshot(page, 'infra-lines');

    // Products: one on that line; zero limits read as unlimited.
    await open('Products', 'productsList');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ant-modal #name').fill('basic');
    await choose(page, 'zoneID', 'taipei');
    await choose(page, 'groupID', 'asia-line');
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const productRow = page.locator('.ant-table-row', { hasText: 'basic' });
    await productRow.getByText('Unlimited').first().waitFor();
    await productRow.locator('.ant-table-row-expand-icon').click();
    await productRow.locator('xpath=following-sibling::tr[1]').getByText('When traffic is exceeded').waitFor();
    await screenshot(page, 'infra-products');

    // Sites: one for the user from the product.
    await open('Sites', 'sitesList');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ant-modal .ant-form-item:has(#userID) .ant-select').click();
    await page.locator('.ant-modal #userID').fill('shop');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: USER }).click();
    await choose(page, 'productID', 'basic');
    await page.locator('.ant-modal #name').fill('shop-site');
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const siteRow = page.locator('.ant-table-row', { hasText: 'shop-site' });
    await siteRow.getByText('Normal', { exact: true }).waitFor();
    await siteRow.getByText(USER).waitFor();
    await siteRow.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: 'Lock' }).click();
    await siteRow.getByText('Locked', { exact: true }).waitFor();
    await siteRow.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: 'Resume' }).click();
    await siteRow.getByText('Normal', { exact: true }).waitFor();
    await screenshot(page, 'infra-sites');

    // Site actions: limitations through a form, a cache clear after a confirmation; a normal site is in use.
    const openMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
    const siteAction = async (label: string) => {
      await siteRow.getByRole('button', { name: 'More actions' }).click();
      await openMenu.getByText(label, { exact: true }).click();
      await openMenu.waitFor({ state: 'hidden' });
    };
    await siteRow.getByRole('button', { name: 'More actions' }).click();
    await openMenu.getByText('Limitations', { exact: true }).waitFor();
    await screenshot(page, 'infra-site-actions');
    await openMenu.getByText('Limitations', { exact: true }).click();
    await openMenu.waitFor({ state: 'hidden' });
    await page.locator('.ant-modal #domainLimit').fill('5');
    await submitModal(page);
    await page.getByText('Update Successful!').first().waitFor();
    await page.locator('.ant-modal-wrap:visible').waitFor({ state: 'hidden' });
    await siteAction('Clear cache');
    await page.locator('.ant-modal-confirm').getByText('Empty the edge cache of shop-site on every node serving it?').waitFor();
    await screenshot(page, 'infra-site-clear-cache');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Cache clear sent to 0 nodes').waitFor();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    await siteRow.getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Site in use').waitFor();

    // The client's read-only listing of its users' domains.
    const userToken = await signIn('user', USER);
    const siteId = (await api(server, 'GET', 'user/sites', { token: userToken })).body.data[0].id;
    const added = await api(server, 'POST', `user/site/${siteId}/domains`, { token: userToken, body: { domains: 'www.shop.example', upstreams: [{ host: '198.51.100.7' }] } });
    expect(added.status).toBe(200);
    await open('Domains', 'domains');
    const domainRow = page.locator('.ant-table-row', { hasText: 'www.shop.example' });
    await domainRow.getByText('shop-site').waitFor();
    await domainRow.getByText(USER).waitFor();
    await page.locator('.ant-input-search input').first().fill('nothing-like-this');
    await page.locator('.ant-input-search input').first().press('Enter');
    await page.locator('.ant-table-placeholder').waitFor();
    await page.locator('.ant-input-search input').first().fill('shop');
    await page.locator('.ant-input-search input').first().press('Enter');
    await domainRow.waitFor();
    await screenshot(page, 'infra-client-domains');

    // Client mode of the site settings: the client switches into the owner and uses the user's screens.
    await open('Sites', 'sitesList');
    await page.locator('.ant-table-row', { hasText: 'shop-site' }).getByRole('link', { name: 'shop-site' }).click();
    await page.waitForURL(/\/client\/nodeManage\/sitesSetting\/\d+\/shop-site/);
    await page.locator('.ant-tabs').getByText('www.shop.example').waitFor();
    await screenshot(page, 'infra-client-site-setting');
    // The certificate and error-page tabs the user has are the client's too, editable under its site keys.
    await page.getByRole('tab', { name: 'Certificates' }).click();
    await page.getByRole('button', { name: 'Upload certificate' }).waitFor();
    await page.getByRole('tab', { name: 'Error pages' }).click();
    await page.getByRole('button', { name: 'Add error page' }).waitFor();
    await screenshot(page, 'infra-client-site-error-pages');

    // Virtual nodes: one answering with a CNAME and the zone's node.
    await open('Virtual nodes', 'vNode');
    await page.getByTestId('vnode-zone').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'taipei' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ant-modal #name').fill('vn-asia');
    await page.locator('.ant-modal input[placeholder="Host name or IP address"]').fill('edge.example.net');
    await page.locator('.ant-modal').getByRole('button', { name: 'Add record' }).click();
    await page.locator('.ant-modal input[placeholder="Host name or IP address"]').nth(1).fill('203.0.113.7');
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const vnRow = page.locator('.ant-table-row', { hasText: 'vn-asia' });
    await vnRow.getByText('CNAME edge.example.net').waitFor();
    await vnRow.getByText('IP 203.0.113.7').waitFor();
    expect(await vnRow.getByText(/^v-[0-9a-f]{10}$/).count()).toBe(1);
    await screenshot(page, 'infra-virtual-nodes');

    // Monitors: the API pings the node for real and the list shows it normal.
    await sidebar.getByText('Monitoring', { exact: true }).click();
    await sidebar.getByText('Monitor nodes', { exact: true }).click();
    await page.waitForURL('**/client/monitorManagement/monitorNodeList');
    await page.getByRole('button', { name: 'Add monitors' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'edge-1' }).or(page.locator('.ant-modal #nodeIDs')).first().waitFor();
    await page.locator('.ant-modal #nodeIDs').fill('edge-1');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'edge-1 (127.0.0.1)' }).waitFor();
    await page.locator('.ant-modal #nodeIDs').press('Enter');
    await page.locator('.ant-modal .ant-select-selection-item', { hasText: 'edge-1' }).waitFor();
    await page.locator('.ant-modal-title', { hasText: 'Add monitors' }).click();
    await screenshot(page, 'infra-monitor-add');
    await submitModal(page);
    await page.getByText('Create Successful!').waitFor();
    const monitorRow = page.locator('.ant-table-row', { hasText: 'edge-1 (127.0.0.1)' });
    await monitorRow.getByText('HTTP status code').waitFor();
    await monitorRow.getByRole('button', { name: 'Edit' }).click();
    await page.locator('.ant-modal #url').fill('https://not-allowed');
    await page.getByText('The URL must start with http:// or {host}').waitFor();
    await choose(page, 'type', 'Ping');
    // a ping needs no URL: the form drops the field and its error before it is submitted
    await page.getByText('The URL must start with http:// or {host}').waitFor({ state: 'detached' });
    await submitModal(page);
    await page.getByText('Update Successful!').first().waitFor();
    await monitorRow.getByText('Ping').waitFor();
    await monitorRow.getByText('Normal', { exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'infra-monitors');

    await sidebar.getByText('Monitor groups', { exact: true }).click();
    await page.waitForURL('**/client/monitorManagement/monitorNodeGroup');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.ant-modal #name').fill('probes');
    await page.locator('.ant-modal #monitorIDs').fill('edge-1');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'edge-1' }).waitFor();
    await page.locator('.ant-modal #monitorIDs').press('Enter');
    await page.locator('.ant-modal .ant-select-selection-item', { hasText: 'edge-1' }).waitFor();
    await page.locator('.ant-modal-title', { hasText: 'Create' }).click();
    await submitModal(page);
    await page.getByText('Create Successful!').first().waitFor();
    await page.locator('.ant-table-row', { hasText: 'probes' }).getByText('edge-1', { exact: true }).waitFor();
    await screenshot(page, 'infra-monitor-groups');

    // A zone with nodes is not removed (201001).
    await open('Zones', 'zonesList');
    await page.locator('.ant-table-row', { hasText: 'taipei' }).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Remove the nodes in the zone first').waitFor();

    const user = await signIn('user', USER);
    const seen = await api(server, 'GET', 'user/sites', { token: user });
    expect(seen.body.data.map((s: { name: string }) => s.name)).toEqual(['shop-site']);
    expect(browser.errors).toEqual([]);
    await page.close();
  });
});
