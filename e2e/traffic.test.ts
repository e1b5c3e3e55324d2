import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { freshPage, launchBrowser, screenshot } from './browser';
import { api } from './harness';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { until } from './tenants';

const nginx = await nginxForTests('traffic end-to-end needs nginx with the Lua module');
const PASSWORD = 'traffic e2e password';
const HOST = 'shop.traffic.test';

/** One request over a raw socket: answers the status and every byte nginx sent (headers and body). */
const rawGet = ({ port, path: p }: { port: number; path: string }) =>
  new Promise<{ status: number; bytes: number; text: string }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(`GET ${p} HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (c) => chunks.push(c));
    socket.once('error', reject);
    socket.once('end', () => {
      const all = Buffer.concat(chunks);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all.toString('latin1'))?.[1]), bytes: all.length, text: all.toString('utf8') });
    });
  });

describe.skipIf(!nginx.ok)('traffic nginx really served → analytics store → traffic calls and screens', () => {
  let stack: EdgeStack;
  let server: EdgeStack['server'];
  let origin: EdgeStack['origin'];
  let httpPort: number;
  let client: string;
  let user: string;
  let ids: EdgeStack['ids'];

  const usage = async () => (await api(server, 'GET', 'user/traffic/monthlyUsages', { token: user })).body.data[0];

  beforeAll(async () => {
    stack = await startEdgeStack({ password: PASSWORD, originName: 'shop-origin', product: { name: 'Metered plan', exceedAction: 'limit' } });
    ({ server, origin, httpPort, client, user, ids } = stack);
    await api(server, 'POST', `user/site/${ids.site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    await until(`${HOST} to be served`, async () => ((await rawGet({ port: httpPort, path: '/warm-up' })).status === 200 ? true : undefined), 60_000);
  });

  afterAll(() => stack?.stop());

  it('counts every byte nginx sent for the site in the monthly usage and the resource info, within seconds', async () => {
    const first = await until('the warm-up request to be counted', async () => ((await usage())?.requests >= 1 ? await usage() : undefined), 15_000);
    let served = first.bytesSent;
    let sent = 0;
    for (let i = 0; i < 20; i++) {
      const r = await rawGet({ port: httpPort, path: `/page/${i}?pad=${'x'.repeat(i * 10)}` });
      expect(r.status).toBe(200);
      sent += r.bytes;
    }
    const started = Date.now();
    const after = await until('20 more requests to be counted', async () => {
      const u = await usage();
      return u.requests === first.requests + 20 ? u : undefined;
    }, 15_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(after.bytesSent).toBe(served + sent);
    served = after.bytesSent;
    const info = (await api(server, 'GET', 'user/resourceInfo', { token: user })).body.data;
    expect(info).toMatchObject({ siteCount: 1, domainCount: 1, thisMonthTraffic: served });
    const byClient = (await api(server, 'GET', 'client/traffic/monthlyUsages', { token: client })).body.data[0];
    expect(byClient).toMatchObject({ siteID: ids.site, bytesSent: served, trafficState: 'normal' });
  });

  it('stops serving the site with 929 once it used up its allowance, and serves it again when the allowance grows', async () => {
    const gb = ((await usage()).bytesSent + 1) / 1e9;
    await api(server, 'PUT', 'client/product', { token: client, body: { id: ids.product, monthlyTrafficGB: gb, exceedAction: 'limit' } });
    await rawGet({ port: httpPort, path: '/over-the-top' });
    const refused = await until('the edge to answer 929', async () => {
      const r = await rawGet({ port: httpPort, path: '/after-limit' });
      return r.status === 929 ? r : undefined;
    });
    expect(refused.text).toContain('Traffic limit reached');
    expect(await usage()).toMatchObject({ trafficState: 'limited', limited: true });
    const { year, month } = await usage();
    const plan = await api(server, 'POST', 'client/extraTrafficPlan', { token: client, body: { siteID: ids.site, trafficGB: 1, year, month, price: 30 } });
    expect(plan.status).toBe(200);
    await until('the site to be served again', async () => ((await rawGet({ port: httpPort, path: '/lifted' })).status === 200 ? true : undefined));
    expect(await usage()).toMatchObject({ trafficState: 'normal', limited: false, extraTrafficGB: 1 });
  });

  it('shows the traffic report screen with the numbers', async () => {
    const browser = await launchBrowser();
    try {
      const page = await freshPage(browser.context, server.url);
      await page.evaluate(() => localStorage.setItem('language', 'en_US'));
      await browser.context.addCookies([
        { name: 'c_accessToken', value: client, url: server.url },
        { name: 'c_refreshToken', value: 'unused', url: server.url },
        { name: 'c_tokenType', value: 'Bearer', url: server.url },
      ]);
      await page.goto(`${server.url}/client/trafficPkgManagement/trafficReport`);
      await page.locator('tr', { hasText: 'shop' }).waitFor();
      await screenshot(page, 'traffic-report-client');
      await page.goto(`${server.url}/client/trafficPkgManagement/trafficPkgList`);
      await page.locator('tr', { hasText: 'shop' }).waitFor();
      await page.getByRole('button', { name: 'Add traffic package' }).click();
      const modal = page.locator('.ant-modal:visible');
      await modal.locator('#siteID').click();
      await page.locator('.ant-select-item-option', { hasText: 'shop' }).click();
      await modal.locator('#trafficGB').fill('25');
      await modal.locator('#memo').fill('campaign');
      await modal.getByRole('button', { name: 'Submit' }).click();
      await page.locator('.ant-message-notice', { hasText: 'Traffic package added.' }).waitFor();
      const row = page.locator('tr', { hasText: 'campaign' });
      await row.getByText('25', { exact: true }).waitFor();
      await screenshot(page, 'traffic-packages-client');
      const plans = (await api(server, 'GET', 'client/extraTrafficPlans', { token: client })).body.data;
      expect(plans.find((p: { memo: string }) => p.memo === 'campaign')).toMatchObject({ siteID: ids.site, trafficGB: 25, price: 0 });
      await row.getByRole('button', { name: 'Remove' }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await api(server, 'GET', 'client/extraTrafficPlans', { token: client })).body.total).toBe(1);
      await browser.context.clearCookies();
      await browser.context.addCookies([
        { name: 'u_accessToken', value: user, url: server.url },
        { name: 'u_refreshToken', value: 'unused', url: server.url },
        { name: 'u_tokenType', value: 'Bearer', url: server.url },
      ]);
      await page.goto(`${server.url}/user/dashboard`);
      const cards = page.getByTestId('resource-usage');
      await cards.getByText(/\d+\.\d{2} kb/).first().waitFor();
      await screenshot(page, 'traffic-dashboard-user');
      await page.goto(`${server.url}/user/trafficPkgManagement/trafficReport`);
      await page.locator('tr', { hasText: 'shop' }).getByText('Normal').waitFor();
      await screenshot(page, 'traffic-report-user');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
