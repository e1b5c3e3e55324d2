import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { QPS_POLL_MS } from '@edgekeep/contract/constants';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMmdb } from '../apps/agent/src/geo/mmdb-writer';
import { range } from '../apps/agent/src/test/mmdb';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { freshPage, launchBrowser, screenshot } from './browser';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { api, createAccountCli } from './harness';
import { signInByMail, until } from './tenants';

const nginx = await nginxForTests('the security dashboard test needs nginx with the Lua module');
const PASSWORD = 'security dashboard password';
const HOST = 'guarded.shop.test';
/** The addresses of the traffic (all on loopback) and the countries, regions and cities the test databases give them. */
const PLACES: Record<string, { country: string; city: string; region?: string }> = {
  '127.0.0.2': { country: 'CN', city: 'Shenzhen', region: 'Guangdong' },
  '127.0.0.5': { country: 'US', city: 'San Jose' },
  '127.0.0.6': { country: 'US', city: 'San Jose' },
  '127.0.0.7': { country: 'DE', city: 'Frankfurt am Main' },
};
/** Blacklisted: the first also probes whether the blacklist is in place. */
const ABUSERS = ['127.0.0.6', '127.0.0.5'];
const BOT = '127.0.0.7';

type Sent = { ip: string; agent: string; status: number };

/** One request from `ip` over a raw socket; the status nginx answered (0 when it closed without one). */
const request = ({ port, ip, agent }: { port: number; ip: string; agent: string }) =>
  new Promise<Sent>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: ip }, () =>
      socket.write(`GET / HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${agent}\r\nConnection: close\r\n\r\n`),
    );
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', reject);
    socket.once('close', () => resolve({ ip, agent, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'))?.[1] ?? 0) }));
  });

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).locator('.ant-statistic-content').first().innerText()).trim();
const count = (n: number) => n.toLocaleString('en-US');

describe.skipIf(!nginx.ok)('security dashboard: what a real edge refused is what the user dashboard and the security screen show', () => {
  let stack: EdgeStack;
  let dbDir: string;
  let origin: http.Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let stranger: string;
  /** Every request the edge answered, the readiness probes included. */
  const sent: Sent[] = [];
  const send = async (ip: string, agent = 'Mozilla/5.0 Firefox/133.0') => {
    const answer = await request({ port: stack.httpPort, ip, agent });
    sent.push(answer);
    return answer.status;
  };

  beforeAll(async () => {
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-security-geo-'));
    const countryDb = path.join(dbDir, 'country.mmdb');
    const places = Object.entries(PLACES);
    await writeMmdb({ path: countryDb, databaseType: 'EdgeKeep-Test-Country', ranges: places.map(([ip, p]) => range({ from: ip, data: { country_code: p.country } })) });
    await writeMmdb({
      path: path.join(dbDir, 'dbip-city-ipv4.mmdb'),
      databaseType: 'EdgeKeep-Test-City',
      ranges: places.map(([ip, p]) => range({ from: ip, data: { country_code: p.country, state1: p.region ?? p.city, city: p.city } })),
    });
    await writeMmdb({ path: path.join(dbDir, 'dbip-city-ipv6.mmdb'), databaseType: 'EdgeKeep-Test-City', ranges: [range({ from: '2001:db8::1', data: { city: 'Nowhere' } })] });
    origin = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>guarded</p>'));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const originPort = (origin.address() as net.AddressInfo).port;

    stack = await startEdgeStack({ password: PASSWORD, originName: 'unused', agentEnv: { EDGEKEEP_COUNTRY_DB: countryDb, EDGEKEEP_CITY_DIR: dbDir } });
    const { server, ids, user } = stack;
    const as = { token: user };
    await api(server, 'POST', `user/site/${ids.site}/domains`, { ...as, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: originPort }] } });
    await api(server, 'POST', `user/site/${ids.site}/firewall/setting/blacklists`, { ...as, body: { ips: ABUSERS.join('\n') } });
    const [acl] = (await api(server, 'POST', `user/site/${ids.site}/module/luaAcls`, { ...as, body: { modules: [{ name: 'bots' }] } })).body.data;
    await api(server, 'POST', `user/site/${ids.site}/module/luaAcl/${acl.id}/rules`, {
      ...as,
      body: { name: 'evil bot', priority: 1, conditions: [{ field: 'userAgent', operator: 'contains', value: 'evilbot' }], action: 'deny' },
    });
    const domains = (await api(server, 'GET', `user/site/${ids.site}/domains`, as)).body.data;
    await api(server, 'PUT', `user/site/${ids.site}/domains/module/luaAcl`, { ...as, body: { domainIDs: [domains[0].id], moduleID: acl.id } });
    // A second user of the same client: another tenant of the user tier.
    await createAccountCli(server, ['--auth', 'user', '--email', 'stranger@example.com', '--password', PASSWORD, '--client', 'ops@example.com', '--no-second-factor']);
    stranger = await signInByMail({ server, smtp: stack.smtp, tier: 'user', email: 'stranger@example.com', password: PASSWORD });
    await until('the edge to serve the site', async () => ((await send('127.0.0.1')) === 200 ? true : undefined), 60_000);
    await until('the bot rule to refuse', async () => ((await send(BOT, 'evilbot/1')) === 929 ? true : undefined), 30_000);
    await until('the blacklist to refuse', async () => ((await send(ABUSERS[0])) === 929 ? true : undefined), 30_000);

    // The known traffic: three from China served, two of a blacklisted address, two of the bot refused by the ACL rule.
    for (let i = 0; i < 3; i++) await send('127.0.0.2');
    for (let i = 0; i < 2; i++) await send(ABUSERS[1]);
    for (let i = 0; i < 2; i++) await send(BOT, 'evilbot/2.0');
    await until('every request to be counted', async () => {
      const cards = (await api(server, 'POST', 'user/security/cards', { ...as, body: {} })).body.data?.cards as { type: number; value: number }[] | undefined;
      return cards?.find((c) => c.type === 3)?.value === sent.length ? true : undefined;
    }, 30_000);

    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await browser.context.addCookies(
      [['accessToken', user], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `u_${name}`, value, url: server.url })),
    );
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    origin?.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  const blacklisted = () => sent.filter((s) => ABUSERS.includes(s.ip));
  const bots = () => sent.filter((s) => s.agent.startsWith('evilbot'));

  it('served and refused the known traffic through nginx', () => {
    expect(blacklisted().every((s) => s.status === 929) && bots().every((s) => s.status === 929)).toBe(true);
    expect(blacklisted().length).toBeGreaterThanOrEqual(3);
    expect(bots().length).toBeGreaterThanOrEqual(3);
  });

  it('shows the overview cards and the QPS chart of the user dashboard', async () => {
    await page.goto(`${stack.server.url}/user/dashboard`);
    await page.getByTestId('overview-card-reqCount').getByText(count(sent.length), { exact: true }).waitFor();
    expect(await text(page, 'overview-card-chinaReq')).toBe(count(3));
    expect(await text(page, 'status-cards-929')).toBe(count(blacklisted().length + bots().length));
    expect(await text(page, 'status-cards-200')).toBe(count(sent.filter((s) => s.status === 200).length));
    expect(await text(page, 'method-cards-get')).toBe(count(sent.length));
    expect(await text(page, 'ip-cards-ipv4')).toBe(count(sent.length));
    await page.getByTestId('qps-chart').locator('canvas').first().waitFor();
    await page.getByTestId('resource-usage').waitFor();
    await screenshot(page, 'security-dashboard-overview');
  });

  it('shows refusals per block type and the blacklisted addresses on the blacklist tab', async () => {
    await page.goto(`${stack.server.url}/user/dashboard`);
    await page.getByRole('tab', { name: 'Blacklist' }).click();
    await page.getByTestId('blacklist-card-2').getByText(count(blacklisted().length), { exact: true }).waitFor();
    expect(await text(page, 'blacklist-card-12')).toBe(count(bots().length));
    expect(await text(page, 'blacklist-card-3')).toBe('0');
    expect(await text(page, 'blacklist-card-chinaCount')).toBe('0');
    expect(await text(page, 'blacklist-card-nonChinaCount')).toBe(count(blacklisted().length + bots().length));
    const top = page.getByTestId('security-top-tops-14');
    for (const ip of ABUSERS) {
      const row = top.locator('tr', { hasText: ip });
      expect(await row.locator('td').nth(2).innerText()).toBe(count(blacklisted().filter((s) => s.ip === ip).length));
    }
    await page.getByTestId('blacklist-series').getByText(`Blacklist refusals: ${blacklisted().length}`).waitFor();
    const countries = page.getByTestId('security-top-blacklist-18');
    expect(await countries.locator('tr', { hasText: '(US)' }).locator('td').nth(2).innerText()).toBe(count(blacklisted().length));
    await screenshot(page, 'security-dashboard-blacklist-tab');
  });

  it('shows the refusals of the ACL rule on the WAF analysis tab', async () => {
    await page.goto(`${stack.server.url}/user/dashboard`);
    await page.getByRole('tab', { name: 'WAF analysis' }).click();
    await page.getByTestId('waf-series').getByText(`WAF refusals: ${bots().length}`).waitFor();
    const rules = page.getByTestId('security-top-waf-23');
    expect(await rules.locator('tr', { hasText: 'evil bot' }).locator('td').nth(2).innerText()).toBe(count(bots().length));
    expect(await page.getByTestId('security-top-waf-25').locator('tr', { hasText: BOT }).locator('td').nth(2).innerText()).toBe(count(bots().length));
    await screenshot(page, 'security-dashboard-waf-tab');
  });

  it('shows the same numbers on the security dashboard screen', async () => {
    await page.goto(`${stack.server.url}/user/dataAnalysis/securityAnalysis`);
    await page.getByTestId('security-card-3').getByText(count(sent.length), { exact: true }).waitFor();
    expect(await text(page, 'security-card-4')).toBe(count(blacklisted().length + bots().length));
    expect(await text(page, 'security-card-5')).toBe(count(new Set([...blacklisted(), ...bots()].map((s) => s.ip)).size));
    expect(await text(page, 'security-card-14')).toBe(count(blacklisted().length));
    expect(await text(page, 'security-card-15')).toBe(count(bots().length));
    const domains = page.getByTestId('security-top-tops-19');
    expect(await domains.locator('tr', { hasText: HOST }).locator('td').nth(2).innerText()).toBe(count(blacklisted().length + bots().length));
    const cities = page.getByTestId('security-top-areaTops-22');
    expect(await cities.locator('tr', { hasText: 'Frankfurt am Main' }).locator('td').nth(2).innerText()).toBe(count(bots().length));
    expect(await cities.locator('tr', { hasText: 'San Jose' }).locator('td').nth(2).innerText()).toBe(count(blacklisted().length));
    const map = page.getByTestId('country-map');
    expect(await map.locator('tr', { hasText: '(DE)' }).locator('td').nth(1).innerText()).toBe(count(bots().length));
    await page.getByTestId('waf-panel').getByText(`WAF refusals: ${bots().length}`).waitFor();
    // China's map, all requests: the province of the one address in China
    await page.getByTestId('security-map-type').getByText('All requests').click();
    const china = page.getByTestId('china-map');
    await china.locator('tr', { hasText: 'Guangdong' }).waitFor();
    expect(await china.locator('tr', { hasText: 'Guangdong' }).locator('td').nth(1).innerText()).toBe(count(sent.filter((s) => s.ip === '127.0.0.2').length));
    expect(await china.locator('canvas').count()).toBeGreaterThan(0);
    await screenshot(page, 'security-dashboard');
    expect(browser.errors).toEqual([]);
  });

  it('shows the client the refusals of its users on its security screen', async () => {
    await browser.context.addCookies(
      [['accessToken', stack.client], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `c_${name}`, value, url: stack.server.url })),
    );
    await page.goto(`${stack.server.url}/client/dataAnalysis/securityAnalysis`);
    await page.getByTestId('security-card-4').getByText(count(blacklisted().length + bots().length), { exact: true }).waitFor();
    expect(await text(page, 'security-card-14')).toBe(count(blacklisted().length));
  });

  it(`fetches the latest five minutes every ${QPS_POLL_MS / 1000} s and moves the QPS chart on`, async () => {
    const polled = await browser.context.newPage();
    await polled.clock.install();
    await polled.goto(`${stack.server.url}/user/dashboard`);
    const chart = polled.getByTestId('qps-chart');
    await chart.getByText(`QPS · Requests: ${count(sent.length)}`).waitFor();
    for (let i = 0; i < 2; i++) expect(await send('127.0.0.2')).toBe(200);
    await until('the new requests to be counted', async () => {
      const cards = (await api(stack.server, 'POST', 'user/security/cards', { token: stack.user, body: { types: [3] } })).body.data.cards;
      return cards[0].value === sent.length ? true : undefined;
    }, 30_000);
    await polled.clock.runFor(QPS_POLL_MS);
    await chart.getByText(`QPS · Requests: ${count(sent.length)}`).waitFor();
    await polled.close();
  });

  it("shows another user of the client none of it, and the client all of its users' refusals", async () => {
    const cards = (await api(stack.server, 'POST', 'user/security/cards', { token: stranger, body: {} })).body.data.cards;
    expect(cards.map((c: { value: number }) => c.value)).toEqual([0, 0, 0, 0, 0]);
    const tops = (await api(stack.server, 'POST', 'user/security/waf', { token: stranger, body: {} })).body.data.tops;
    expect(tops.every((t: { items: unknown[] }) => !t.items.length)).toBe(true);
    const foreign = await api(stack.server, 'POST', 'user/security/blacklist', { token: stranger, body: { reservedSite: [stack.ids.site] } });
    expect(foreign.status).toBe(404);
    const client = (await api(stack.server, 'POST', 'client/security/cards', { token: stack.client, body: {} })).body.data.cards;
    expect(client.find((c: { type: number }) => c.type === 4).value).toBe(blacklisted().length + bots().length);
  });
});
