import fs from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPage, launchBrowser, screenshot, waitForToast } from './browser';
import { api, startServer, startSmtpSink, type Server } from './harness';
import { userWithPlan } from './tenants';

const PASSWORD = 'analytics e2e password';
const USER = 'stats@example.com';
const HOST = 'shop.analytics.test';

/** Access lines as an edge logs them, ten minutes ago: four served, a 404, and one the ACL refused. */
const lines = (siteId: number) => {
  const at = (s: number) => new Date(Date.now() - 10 * 60_000 + s * 1000).toISOString();
  const line = (o: Record<string, unknown>) => ({
    siteId, domain: HOST, clientIp: '203.0.113.9', country: 'TW', asn: 'AS3462', method: 'GET', status: 200, bytesReceived: 300, requestTime: 0.012,
    upstreamTime: null, cacheStatus: 'HIT', httpVersion: 'HTTP/1.1', referer: 'https://www.example.org/start', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
    blockCause: '', scheme: 'https', region: 'Taipei City', city: 'Taipei', isp: 'Chunghwa Telecom', blockRule: '', blockAction: '', ...o,
  });
  return [
    line({ time: at(1), uri: '/index.html', bytesSent: 5000, requestId: 'req-a1', offset: 100 }),
    line({ time: at(2), uri: '/index.html', bytesSent: 5000, requestId: 'req-a2', offset: 200 }),
    line({ time: at(3), uri: '/app.js', bytesSent: 3000, requestId: 'req-a3', country: 'US', region: 'California', city: 'San Jose', isp: 'Example Transit', cacheStatus: 'MISS', upstreamTime: 0.008, offset: 300 }),
    line({ time: at(4), uri: '/missing', status: 404, bytesSent: 500, requestId: 'req-a4', country: 'US', cacheStatus: 'MISS', upstreamTime: 0.004, offset: 400 }),
    line({ time: at(5), uri: '/login', method: 'POST', status: 403, bytesSent: 200, requestId: 'req-a5', cacheStatus: '', blockCause: 'acl', blockRule: 'acl:12', blockAction: 'block', offset: 500 }),
  ];
};
const TOTAL_BYTES = 5000 + 5000 + 3000 + 500 + 200;

describe('statistics, logs and log export screens in Chromium, over lines an edge posted', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let client: string;
  let user: string;

  const signInAs = async (tier: 'user' | 'client', token: string) => {
    const prefix = tier === 'user' ? 'u' : 'c';
    await browser.context.clearCookies();
    await browser.context.addCookies(
      [['accessToken', token], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `${prefix}_${name}`, value, url: server.url })),
    );
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const plan = await userWithPlan({ server, smtp, password: PASSWORD, user: USER });
    [client, user] = [plan.client, plan.userToken];
    const site = await plan.newSite('shop');
    await api(server, 'POST', `user/site/${site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '198.51.100.7' }] } });
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: plan.node } })).body.data;
    const enrolled = await fetch(`${server.url}/agent/v1/enroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: enrol.token, hostname: 'edge-1', version: '0.1.0' }) });
    const { credential } = (await enrolled.json()) as { credential: string };
    const posted = await fetch(`${server.url}/agent/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', 'x-log-file': 'access-e2e', authorization: `Node ${credential}` },
      body: gzipSync(lines(site).map((l) => JSON.stringify(l)).join('\n') + '\n'),
    });
    expect(await posted.json()).toEqual({ accepted: 5 });
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('shows the cards, a top table and the map of the last three hours', async () => {
    await signInAs('user', user);
    await page.goto(`${server.url}/user/dataAnalysis/statistics`);
    const cards = page.getByTestId('statistics-cards');
    await cards.getByTestId('card-reqCount').getByText('5', { exact: true }).waitFor();
    expect(await cards.getByTestId('card-totalTraffics').locator('.ant-statistic-content').innerText()).toBe('13.70 kb');
    expect(TOTAL_BYTES).toBe(13_700);
    expect(await cards.getByTestId('card-blocked').locator('.ant-statistic-content').innerText()).toBe('1');
    const urls = page.getByTestId('top-url');
    const first = urls.locator('tbody tr').first();
    await first.getByText('/index.html').waitFor();
    expect(await first.innerText()).toMatch(/\/index\.html\s+2\s+10\.00 kb\s+40%/);
    expect(await urls.getByTestId('window-note').innerText()).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} – (\d{4}\/\d{2}\/\d{2} )?\d{2}:\d{2} · 5 minutes$/);
    await page.getByTestId('country-map').locator('tr', { hasText: 'Taiwan (TW)' }).waitFor();
    await page.getByTestId('country-map').locator('canvas').first().waitFor();
    await screenshot(page, 'analytics-statistics-user', { settle: true });
  });

  it('finds the lines in the access and WAF logs, with their details', async () => {
    await signInAs('user', user);
    await page.goto(`${server.url}/user/dataAnalysis/logger`);
    const access = page.getByTestId('log-lines-access');
    const row = access.locator('tr', { hasText: '/app.js' });
    await row.waitFor();
    expect(await access.locator('tbody tr.ant-table-row').count()).toBe(5);
    expect(await access.locator('tbody tr.ant-table-row').first().innerText()).toContain('/login');
    await row.locator('.ant-table-row-expand-icon').click();
    const detail = access.getByTestId('log-detail');
    await detail.getByText('req-a3').waitFor();
    expect(await detail.innerText()).toMatch(/Example Transit[\s\S]*United States \/ California \/ San Jose/);
    await screenshot(page, 'analytics-logger-access');
    await page.getByRole('tab', { name: 'WAF log' }).click();
    const waf = page.getByTestId('log-lines-waf');
    const blocked = waf.locator('tr', { hasText: '/login' });
    await blocked.waitFor();
    expect(await blocked.innerText()).toMatch(/\/login\s+403\s+acl\s+acl\s+12\s+block$/);
    expect(await waf.locator('tbody tr.ant-table-row').count()).toBe(1);
    await screenshot(page, 'analytics-logger-waf');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.locator('tr', { hasText: '/domains' }).first().waitFor();
    await screenshot(page, 'analytics-logger-audit');
  });

  it('exports the access lines of the last hour, follows the export to completed and downloads the file', async () => {
    await signInAs('user', user);
    await page.goto(`${server.url}/user/dataAnalysis/logExport`);
    await page.getByTestId('export-reset-note').getByText('00:00 UTC').waitFor();
    await page.getByTestId('export-submit').click();
    await waitForToast(page, 'Export requested.');
    const done = page.locator('.ant-tag', { hasText: 'Completed' });
    await done.waitFor({ timeout: 60_000 });
    await screenshot(page, 'analytics-log-export');
    const id = (await done.getAttribute('data-testid'))!.replace('export-status-', '');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`export-download-${id}`).click()]);
    expect(download.suggestedFilename()).toMatch(/\.gz$/);
    const csv = gunzipSync(fs.readFileSync((await download.path())!)).toString('utf8');
    for (const id of ['req-a1', 'req-a2', 'req-a3', 'req-a4', 'req-a5']) expect(csv).toContain(id);
    expect(browser.errors).toEqual([]);
  });

  it('shows the client the same numbers, grouped as it picks and exported as CSV', async () => {
    await signInAs('client', client);
    await page.goto(`${server.url}/client/dataAnalysis/statistics`);
    await page.getByTestId('card-reqCount').getByText('5', { exact: true }).waitFor();
    await page.getByTestId('top-domain').locator('tr', { hasText: HOST }).waitFor();
    await screenshot(page, 'analytics-statistics-client', { settle: true });
    await page.goto(`${server.url}/client/dataAnalysis/statisticsCustomize`);
    await page.locator('tr', { hasText: HOST }).getByText('13.70 kb').waitFor();
    await page.getByTestId('group-by').click();
    await page.keyboard.type('URL');
    await page.locator('.ant-select-item-option', { hasText: 'URL' }).click();
    const top = page.locator('tbody tr.ant-table-row').first();
    await top.getByText('/index.html').waitFor();
    await screenshot(page, 'analytics-statistics-customize');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^statistics-url-\d{8}-\d{4}-\d{8}-\d{4}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('/index.html');
    await page.goto(`${server.url}/client/dataAnalysis/logger`);
    await page.getByTestId('log-lines-access').locator('tr', { hasText: '/missing' }).waitFor();
    await page.goto(`${server.url}/client/dataAnalysis/logExport`);
    await page.locator('tr', { hasText: 'Access log' }).first().waitFor({ state: 'detached' });
    await page.getByTestId('export-apply').waitFor();
    expect(browser.errors).toEqual([]);
  });
});
