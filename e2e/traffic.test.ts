import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from '../apps/agent/src/apply/process';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { freePort, startOrigin } from '../apps/agent/src/test/servers';
import { freshPage, launchBrowser, screenshot } from './browser';
import { api, createAccountCli, ROOT, startServer, startSmtpSink, type Server } from './harness';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`traffic end-to-end needs nginx with the Lua module: ${nginx.reason}`);
const PASSWORD = 'traffic e2e password';
const HOST = 'shop.traffic.test';

const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

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
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let agent: ChildProcess;
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-traffic-nginx-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-traffic-agent-'));
  let httpPort: number;
  let client: string;
  let user: string;
  let ids: { zone: number; node: number; site: number; product: number };
  let served = 0;

  const signIn = async (tier: 'admin' | 'client' | 'user', email: string) => {
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password: PASSWORD } });
    const code = await smtp.waitFor(email, /code is (\d{6})/, before);
    const step2 = await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } });
    return step2.body.data.accessToken as string;
  };
  const usage = async () => (await api(server, 'GET', 'user/traffic/monthlyUsages', { token: user })).body.data[0];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    origin = await startOrigin({ name: 'shop-origin' });
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const made = await createAccountCli(server, ['--auth', 'client', '--email', 'ops@example.com', '--password', PASSWORD]);
    const clientId = Number(/#(\d+)/.exec(made)![1]);
    const admin = await signIn('admin', 'root@example.com');
    const terms = { name: 'e2e', days: 30, siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4', nodeMonitorSeconds: 30 };
    const license = (await api(server, 'POST', 'license', { token: admin, body: terms })).body.data.id;
    await api(server, 'POST', 'license/issuing', { token: admin, body: { id: license, clientID: clientId } });
    await createAccountCli(server, ['--auth', 'user', '--email', 'shop@example.com', '--password', PASSWORD, '--client', 'ops@example.com']);
    client = await signIn('client', 'ops@example.com');
    user = await signIn('user', 'shop@example.com');
    httpPort = await freePort();
    const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'e2e' } })).body.data.id;
    await api(server, 'PUT', `client/zone/${zone}/ports`, { token: client, body: { httpPorts: [httpPort], httpsPorts: [await freePort()] } });
    const node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'local', ip: '127.0.0.1' } })).body.data.id;
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: node } })).body.data;
    agent = spawn('npx', ['tsx', 'apps/agent/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, EDGEKEEP_API: server.url, EDGEKEEP_ENROLL_TOKEN: enrol.token, STATE_DIR: stateDir, NGINX_PREFIX: prefix, EDGEKEEP_CONTROL_PORT: String(await freePort()) },
    });
    const group = (await api(server, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: 'line', nodeIDs: [node] } })).body.data.id;
    const product = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'Metered plan', zoneID: zone, groupID: group, exceedAction: 'limit' } })).body.data.id;
    const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
    const site = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: product, userID: users.body.data[0].id } })).body.data.id;
    await api(server, 'POST', `user/site/${site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    ids = { zone, node, site, product };
    await until(`${HOST} to be served`, async () => ((await rawGet({ port: httpPort, path: '/warm-up' })).status === 200 ? true : undefined), 60_000);
  });

  afterAll(async () => {
    if (agent?.exitCode === null) process.kill(-agent.pid!, 'SIGTERM');
    await stopNginx({ prefix }).catch(() => undefined);
    await server?.stop();
    await origin?.close();
    await smtp?.close();
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('counts every byte nginx sent for the site in the monthly usage and the resource info, within seconds', async () => {
    const first = await until('the warm-up request to be counted', async () => ((await usage())?.requests >= 1 ? await usage() : undefined), 15_000);
    served = first.bytesSent;
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
    const gb = (served + 1) / 1e9;
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
