import fs from 'node:fs';
import net from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { formatBytes } from '../apps/web/src/lib/units';
import { freshPage, launchBrowser, screenshot, topModal, waitForToast } from './browser';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { signInByMail, until } from './tenants';

const nginx = await nginxForTests('the widget dashboard test needs nginx with the Lua module');
const PASSWORD = 'widget dashboard password';
const HOST = 'widgets.shop.test';

/** One plain-HTTP request through the edge; answers the status and every byte nginx sent, headers included. */
const fetchThroughEdge = ({ port, path }: { port: number; path: string }) =>
  new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', reject);
    socket.once('close', () => {
      const all = Buffer.concat(chunks);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all.toString('latin1'))?.[1] ?? 0), bytes: all.length });
    });
  });

describe.skipIf(!nginx.ok)('the client and admin widget dashboards in Chromium, over traffic a real edge served', () => {
  let stack: EdgeStack;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let admin: string;
  /** Every request the edge answered for the site: the readiness probes and the mix. */
  const served: { status: number; bytes: number }[] = [];
  const totalBytes = () => served.reduce((n, s) => n + s.bytes, 0);
  const filter = { timeInterval: 'oneDay', reportInterval: 15 };

  const signInAs = async (prefix: 'c' | 'a', token: string) => {
    await browser.context.clearCookies();
    await browser.context.addCookies(
      [['accessToken', token], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `${prefix}_${name}`, value, url: stack.server.url })),
    );
  };
  const cardValue = (type: string) => page.locator(`[data-type="${type}"]`).first().getByTestId('widget-value');
  /** The client's dashboard, once its request count shows. */
  const openClientDashboard = async () => {
    await signInAs('c', stack.client);
    await page.goto(`${stack.server.url}/client/dashboard`);
    await cardValue('requestsCard').getByText(String(served.length), { exact: true }).waitFor();
  };

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'widgets' });
    const { server, ids, user } = stack;
    await api(server, 'POST', `user/site/${ids.site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] } });
    await until('the edge to serve the site', async () => {
      const answer = await fetchThroughEdge({ port: stack.httpPort, path: '/probe' });
      if (answer.status !== 200) return undefined;
      served.push(answer);
      return true;
    }, 60_000);
    for (let i = 0; i < 6; i++) served.push(await fetchThroughEdge({ port: stack.httpPort, path: `/page/${i}` }));
    expect(served.slice(-6).map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await until('the edge lines to be folded', async () => {
      const info = await api(server, 'POST', 'client/statistics/info', { token: stack.client, body: filter });
      return info.body.data?.cards.reqCount === served.length ? true : undefined;
    }, 60_000);
    admin = await signInByMail({ server, smtp: stack.smtp, tier: 'admin', email: 'root@example.com', password: PASSWORD });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("shows the client's cards with the requests, traffic and status codes the edge served", async () => {
    await openClientDashboard();
    expect(await cardValue('trafficCard').innerText()).toBe(formatBytes(totalBytes()));
    expect(await page.locator('[data-type="statusCard"]').getByTestId('widget-status-codes').innerText()).toBe(`200: ${served.length}`);
    expect(await cardValue('upstreamCard').innerText()).toBe(String(served.length));
    await page.locator('[data-type="trafficChart"] canvas').first().waitFor();
    await screenshot(page, 'widget-dashboard-client');
  });

  it('adds a component in edit mode, asks before leaving it unsaved, saves, and shows it after a reload', async () => {
    await openClientDashboard();
    const upstreamCards = page.locator('[data-type="upstreamCard"]');
    expect(await upstreamCards.count()).toBe(1);
    await page.getByTestId('dashboard-edit').click();
    await page.getByTestId('dashboard-add-component').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Requests to origin' }).first().click();
    // the new card is rendered after the click: wait for it, then count
    await upstreamCards.nth(1).waitFor();
    expect(await upstreamCards.count()).toBe(2);
    await screenshot(page, 'widget-dashboard-editing');
    await page.getByTestId('dashboard-exit').click();
    await topModal(page).locator('.ant-modal-confirm-title', { hasText: 'Unsaved changes' }).waitFor();
    await topModal(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('dashboard-save').click();
    await waitForToast(page, 'Dashboard saved.');
    await page.reload();
    await upstreamCards.nth(1).getByTestId('widget-value').getByText(String(served.length), { exact: true }).waitFor();
    expect(await upstreamCards.count()).toBe(2);
    const stored = await api(stack.server, 'GET', 'client/dashboard', { token: stack.client });
    expect(stored.body.data.pages[0].widgets.filter((w: { type: string }) => w.type === 'upstreamCard')).toHaveLength(2);
  });

  it('exports the dashboard to a file, deletes it, and imports the file back', async () => {
    await openClientDashboard();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('dashboard-export').click()]);
    expect(download.suggestedFilename()).toBe('dashboard-client.json');
    const file = (await download.path())!;
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    const before = (await api(stack.server, 'GET', 'client/dashboard', { token: stack.client })).body.data;
    expect(exported).toEqual({ pages: before.pages });

    await page.getByTestId('dashboard-delete').click();
    const put = page.waitForResponse((r) => r.url().endsWith('/client/dashboard') && r.request().method() === 'PUT');
    await topModal(page).getByRole('button', { name: 'Confirm' }).click();
    expect((await put).status()).toBe(200);
    await waitForToast(page, 'Dashboard deleted.');
    await page.getByText('This dashboard has no pages').waitFor();
    expect((await api(stack.server, 'GET', 'client/dashboard', { token: stack.client })).body.data.pages).toEqual([]);

    const broken = `${file}.broken.json`;
    fs.writeFileSync(broken, JSON.stringify({ pages: [{ id: 'p', name: 'P', widgets: [{ i: 'a', type: 'coffeeCard', x: 0, y: 0, w: 2, h: 2 }] }] }));
    await page.locator('input[type="file"]').setInputFiles(broken);
    await page.locator('.ant-message-notice', { hasText: 'pages.0.widgets.0.type' }).waitFor();
    expect(await page.getByTestId('widget-dashboard').getAttribute('data-editing')).toBe('false');

    await page.locator('input[type="file"]').setInputFiles(file);
    await page.locator('[data-type="upstreamCard"]').first().waitFor();
    await page.getByTestId('dashboard-save').click();
    await waitForToast(page, 'Dashboard saved.');
    const after = (await api(stack.server, 'GET', 'client/dashboard', { token: stack.client })).body.data;
    expect(after.pages).toEqual(before.pages);
    expect(browser.errors).toEqual([]);
  });

  it('shows the admin the same numbers over the whole platform, above the license overview', async () => {
    await signInAs('a', admin);
    await page.goto(`${stack.server.url}/admin/dashboard`);
    await cardValue('requestsCard').getByText(String(served.length), { exact: true }).waitFor();
    expect(await cardValue('trafficCard').innerText()).toBe(formatBytes(totalBytes()));
    await page.getByTestId('stat-clients').waitFor();
    await screenshot(page, 'widget-dashboard-admin');
    expect(browser.errors).toEqual([]);
  });
});
