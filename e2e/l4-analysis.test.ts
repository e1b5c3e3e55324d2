import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMmdb } from '../apps/agent/src/geo/mmdb-writer';
import { range } from '../apps/agent/src/test/mmdb';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { freePort, startTcpEcho, tcpAnswer } from '../apps/agent/src/test/servers';
import { freshPage, launchBrowser, screenshot } from './browser';
import { startEdgeStack, type EdgeStack } from './edge-stack';
import { api } from './harness';
import { until } from './tenants';

const nginx = await nginxForTests('the L4 analysis test needs nginx with the Lua module');
const PASSWORD = 'l4 analysis password';
const N = 'statistics/network/outcomes';

/** The node's address (the data centre) and the clients, with what the test databases say of them. */
const PLACES: Record<string, { country: string; asn?: number }> = {
  '127.0.0.1': { country: 'NL' },
  '127.0.0.2': { country: 'DE', asn: 64_500 },
  '127.0.0.3': { country: 'US', asn: 64_501 },
  '127.0.0.4': { country: 'DE', asn: 64_502 },
  '127.0.0.5': { country: 'US', asn: 64_503 },
};
/** Probe addresses (readiness) and the mix's: .4 passes, .3 and .5 are on the L4 blacklist. */
const [PROBE, PROBE_BLOCKED, CLIENT, ATTACKER] = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
/** What a passed connection carries: 'hi' in, 'echo:hi' out. */
const PASS_BITS = ('hi'.length + 'echo:hi'.length) * 8;

type Item = { key: string; bits: number; connections: number };

describe.skipIf(!nginx.ok)('L4 attack analysis: connections through a real edge are what the network calls and the screen say', () => {
  let stack: EdgeStack;
  let dbDir: string;
  let echo: Awaited<ReturnType<typeof startTcpEcho>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let l4Port: number;
  const body = { timeInterval: 'oneHour', top: 10 };
  const post = (tier: 'user' | 'client', call: string, extra: object = {}) =>
    api(stack.server, 'POST', `${tier}/${N}/${call}`, { token: tier === 'user' ? stack.user : stack.client, body: { ...body, ...extra } });
  const itemOf = (items: Item[], key: string) => items.find((i) => i.key === key);

  beforeAll(async () => {
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-l4-geo-'));
    const countryDb = path.join(dbDir, 'country.mmdb');
    const asnDb = path.join(dbDir, 'asn.mmdb');
    const places = Object.entries(PLACES);
    await writeMmdb({ path: countryDb, databaseType: 'EdgeKeep-Test-Country', ranges: places.map(([ip, p]) => range({ from: ip, data: { country_code: p.country } })) });
    await writeMmdb({
      path: asnDb,
      databaseType: 'EdgeKeep-Test-ASN',
      ranges: places.filter(([, p]) => p.asn).map(([ip, p]) => range({ from: ip, data: { autonomous_system_number: p.asn!, autonomous_system_organization: `AS ${p.asn}` } })),
    });
    echo = await startTcpEcho();
    stack = await startEdgeStack({
      password: PASSWORD,
      originName: 'unused',
      agentEnv: { EDGEKEEP_COUNTRY_DB: countryDb, EDGEKEEP_ASN_DB: asnDb, EDGEKEEP_ASN: '1' },
      serverEnv: { L4_ATTACK_ANALYSIS: '1' },
    });
    const { server, ids, user } = stack;
    l4Port = await freePort();
    const made = await api(server, 'POST', `user/site/${ids.site}/ports`, { token: user, body: { ports: [{ port: l4Port, upstreams: [{ host: '127.0.0.1', port: echo.port }] }] } });
    expect(made.status).toBe(200);
    for (const ip of [PROBE_BLOCKED, ATTACKER]) {
      expect((await api(server, 'POST', `user/site/${ids.site}/firewall/l4/blacklists`, { token: user, body: { ip, port: l4Port } })).status).toBe(200);
    }
    await until('the L4 port to forward', async () => ((await tcpAnswer({ port: l4Port, from: PROBE })) === 'echo:hi' ? true : undefined), 60_000);
    await until('the L4 blacklist to refuse', async () => ((await tcpAnswer({ port: l4Port, from: PROBE_BLOCKED })) === '' ? true : undefined), 30_000);
    for (let i = 0; i < 3; i++) expect(await tcpAnswer({ port: l4Port, from: CLIENT })).toBe('echo:hi');
    for (let i = 0; i < 2; i++) expect(await tcpAnswer({ port: l4Port, from: ATTACKER })).toBe('');
    browser = await launchBrowser();
    page = await freshPage(browser.context, server.url);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await echo?.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  it('reports the passed connections with their bytes × 8, and the refused ones as drops, by source, ASN and data centre', async () => {
    const ips = await until('the mix to be counted', async () => {
      const passed = (await post('user', 'ips/tops', { outcomes: 'pass' })).body.data.items as Item[];
      const dropped = (await post('user', 'ips/tops', { outcomes: 'drop' })).body.data.items as Item[];
      return itemOf(passed, CLIENT)?.connections === 3 && itemOf(dropped, ATTACKER)?.connections === 2 ? { passed, dropped } : undefined;
    }, 60_000);
    expect(itemOf(ips.passed, CLIENT)).toEqual({ key: CLIENT, bits: 3 * PASS_BITS, connections: 3 });
    expect(itemOf(ips.passed, ATTACKER)).toBeUndefined();
    expect(itemOf(ips.dropped, CLIENT)).toBeUndefined();
    const sums = (await post('user', 'sumBits')).body.data;
    expect(sums.passConnections).toBeGreaterThanOrEqual(4);
    expect(sums.dropConnections).toBeGreaterThanOrEqual(3);
    expect(sums.total).toBe(sums.pass + sums.drop);
    expect(sums.pass % 8).toBe(0);
    expect(sums.pass).toBe(sums.passConnections * PASS_BITS);
    const asns = (await post('user', 'asns/tops')).body.data;
    expect(itemOf(asns.items, '64502')).toEqual({ key: '64502', bits: 3 * PASS_BITS, connections: 3 });
    const colo = (await post('user', 'countries/tops')).body.data;
    expect(colo).toMatchObject({ noData: false, items: [{ key: 'NL', bits: sums.total, connections: sums.passConnections + sums.dropConnections }] });
    const protocols = (await post('user', 'ipProtocols/bits')).body.data.items;
    expect(protocols[0]).toEqual({ protocol: 'TCP', measured: true, bits: sums.total, connections: sums.passConnections + sums.dropConnections });
    expect(protocols.slice(2).map((p: { bits: unknown }) => p.bits)).toEqual([null, null]);
    const rate = (await post('user', 'avgBitRate', { reportInterval: 60 })).body.data.data as { pass: number }[];
    const seconds = 3600;
    expect(rate.reduce((n, p) => n + p.pass, 0) * seconds).toBeCloseTo(sums.pass, 6);
    expect((await post('client', 'sumBits')).body.data).toEqual(sums);
  });

  it('the l4AttackAnalysis screen shows those numbers, and says TCP flags are not measured', async () => {
    const sums = (await post('user', 'sumBits')).body.data;
    const prefix = 'u';
    await browser.context.addCookies(
      [['accessToken', stack.user], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `${prefix}_${name}`, value, url: stack.server.url })),
    );
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${stack.server.url}/user/dashboard`);
    const sider = page.locator('.ant-layout-sider');
    await sider.getByText('Data analysis', { exact: true }).click();
    await sider.getByText('L4 attack analysis', { exact: true }).click();
    await page.waitForURL('**/user/dataAnalysis/l4AttackAnalysis');
    const bits = (n: number) => `${n.toLocaleString('en-US')} bits`;
    await page.getByTestId('l4-pass-bits').getByText(bits(sums.pass), { exact: true }).waitFor();
    expect(await page.getByTestId('l4-drop-bits').innerText()).toBe(bits(sums.drop));
    expect(await page.getByTestId('l4-total-bits').innerText()).toBe(bits(sums.total));
    expect(await page.getByTestId('l4-drop-connections').innerText()).toBe(`${sums.dropConnections} connections`);
    await page.getByTestId('l4-attack-rate').locator('canvas').first().waitFor();
    await screenshot(page, 'l4-attack-analysis');
    await page.getByRole('tab', { name: 'Source IPs' }).click();
    expect(await page.getByTestId(`l4-ips-bits-${CLIENT}`).innerText()).toBe(bits(3 * PASS_BITS));
    await page.getByRole('tab', { name: 'Data centre country' }).click();
    await page.getByTestId('l4-countries-table').getByText('(NL)').waitFor();
    await page.getByRole('tab', { name: 'TCP flags' }).click();
    expect(await page.getByTestId('l4-tcp-flags-empty').innerText()).toContain('TCP flags are not measured');
    await page.getByRole('tab', { name: 'IP protocol' }).click();
    expect(await page.getByTestId('l4-protocol-bits-TCP').innerText()).toBe(bits(sums.total));
    await screenshot(page, 'l4-attack-analysis-protocols');
  });

  it("the client's screen shows its users' L4 traffic", async () => {
    const sums = (await post('client', 'sumBits')).body.data;
    await browser.context.addCookies(
      [['accessToken', stack.client], ['refreshToken', 'unused'], ['tokenType', 'Bearer']].map(([name, value]) => ({ name: `c_${name}`, value, url: stack.server.url })),
    );
    await page.evaluate(() => localStorage.setItem('language', 'en_US'));
    await page.goto(`${stack.server.url}/client/dataAnalysis/l4AttackAnalysis`);
    const total = `${sums.total.toLocaleString('en-US')} bits`;
    await page.getByTestId('l4-total-bits').getByText(total, { exact: true }).waitFor();
    expect(sums.total).toBeGreaterThan(0);
    expect(await page.getByTestId('l4-total-bits').innerText()).toBe(total);
  });
});
