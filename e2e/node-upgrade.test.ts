import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from '../apps/agent/src/apply/process';
import { nginxForTests } from '../apps/agent/src/test/nginx-harness';
import { freePort, get } from '../apps/agent/src/test/servers';
import { freshPage, launchBrowser, openMenuItem, switchLanguage, waitForToast } from './browser';
import { api, ROOT, startServer, startSmtpSink, type Server } from './harness';
import { signInThroughForm } from './sign-in-flow';
import { licensedClient, until } from './tenants';

const nginx = await nginxForTests('the upgrade end-to-end test needs nginx with the Lua module');
const PASSWORD = 'upgrade e2e password';
const CLIENT = 'ops@example.com';
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'apps/agent/package.json'), 'utf8')) as { version: string }).version;
const OLD = '0.0.9';
const pack = (out: string) => execFileSync('sh', [path.join(ROOT, 'apps/agent/install/pack.sh'), out], { encoding: 'utf8' }).trim();

/**
 * A node installed from an older package: the package unpacked, its version set back, started by its launcher
 * (bin/edgekeep-agent) as systemd would, so that an upgrade really replaces the running agent.
 */
function oldInstall(work: string) {
  const unpacked = path.join(work, 'opt');
  fs.mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', pack(path.join(work, 'old-package')), '-C', unpacked]);
  const root = path.join(unpacked, 'edgekeep');
  for (const file of ['package.json', 'apps/agent/package.json']) {
    const json = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
    fs.writeFileSync(path.join(root, file), JSON.stringify({ ...json, version: OLD }, null, 2));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

describe.skipIf(!nginx.ok)('node upgrade: a real agent fetches, verifies and switches over, or stays and serves', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let agent: ChildProcess;
  let agentOutput = '';
  let client: string;
  let node: number;
  let httpPort: number;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-upgrade-'));
  // nginx's workers read the prefix below it.
  fs.chmodSync(work, 0o755);
  const prefix = path.join(work, 'nginx');
  const stateDir = path.join(work, 'state');

  const served = async () => (await get({ port: httpPort, host: 'nobody.example.test' }).catch(() => ({ status: 0 }))).status;
  const nodeRow = async () => (await api(server, 'GET', 'client/node/upgrades', { token: client })).body.data.find((n: { id: number }) => n.id === node);
  const packageFile = () => path.join(server.dataDir, 'agent-package', `edgekeep-agent-${VERSION}.tgz`);

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    ({ client } = await licensedClient({ server, smtp, password: PASSWORD, email: CLIENT }));
    const [http, https, control] = [await freePort(), await freePort(), await freePort()];
    httpPort = http;
    const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'upgrade' } })).body.data.id;
    await api(server, 'PUT', `client/zone/${zone}/ports`, { token: client, body: { httpPorts: [http], httpsPorts: [https] } });
    node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'edge-old', ip: '127.0.0.1' } })).body.data.id;
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: node } })).body.data;
    const root = oldInstall(work);
    agent = spawn('sh', [path.join(root, 'apps/agent/bin/edgekeep-agent')], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EDGEKEEP_API: server.url, EDGEKEEP_ENROLL_TOKEN: enrol.token, STATE_DIR: stateDir, NGINX_PREFIX: prefix, EDGEKEEP_CONTROL_PORT: String(control), EDGEKEEP_ASN: '0' },
    });
    agent.stdout!.on('data', (c) => (agentOutput += c));
    agent.stderr!.on('data', (c) => (agentOutput += c));
    // Every test starts from the old version enrolled, reporting and serving.
    await until('the old agent to report', async () => {
      const row = await nodeRow();
      return row?.version === OLD && row.status === 'normal' ? row : undefined;
    }, 90_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${agentOutput}`);
    });
    await until('nginx to serve', async () => ((await served()) === 903 ? true : undefined)).catch((err: Error) => {
      throw new Error(`${err.message}\n${agentOutput}`);
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (agent && agent.exitCode === null) process.kill(-agent.pid!, 'SIGTERM');
    await stopNginx({ prefix }).catch(() => undefined);
    await server?.stop();
    await smtp?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('the old version enrols, reports itself and serves', async () => {
    expect(await nodeRow()).toMatchObject({ version: OLD, status: 'normal', upgradeState: 'notUpdated', latestVersion: VERSION });
    expect(await served()).toBe(903);
  });

  it('a version that fails to start leaves the node on its old version, serving, with the reason in its log', async () => {
    // The control plane ships a package whose agent throws as it loads.
    const broken = path.join(work, 'broken');
    fs.mkdirSync(broken);
    execFileSync('tar', ['-xzf', pack(path.join(work, 'good-package')), '-C', broken]);
    const main = path.join(broken, 'edgekeep/apps/agent/dist/main.js');
    fs.writeFileSync(main, `throw new Error('this build is broken');\n${fs.readFileSync(main, 'utf8')}`);
    fs.mkdirSync(path.dirname(packageFile()), { recursive: true });
    execFileSync('tar', ['-czf', packageFile(), '-C', broken, 'edgekeep']);

    expect((await api(server, 'POST', 'client/node/upgrade', { token: client, body: { ids: [node] } })).status).toBe(200);
    const log = await until('the upgrade to fail', async () => {
      const l = (await api(server, 'GET', `client/node/${node}/upgrade/logs`, { token: client })).body.data;
      return l.state === 'failed' ? l : undefined;
    }, 90_000);
    const text = log.lines.map((l: { message: string }) => l.message).join('\n');
    expect(text).toContain('package verified');
    expect(text).toMatch(/the new version fails to start .*this build is broken/s);
    expect(text).toContain(`the node stays on ${OLD}`);
    expect(agent.exitCode).toBeNull();
    expect((await nodeRow()).version).toBe(OLD);
    expect(await served()).toBe(903);
  });

  it('upgrades from the console: progress, then the new version runs and reports, and nginx never stopped', async () => {
    fs.mkdirSync(path.dirname(packageFile()), { recursive: true });
    fs.copyFileSync(pack(path.join(work, 'good-package-2')), packageFile());
    const page = await freshPage(browser.context, server.url);
    await signInThroughForm(page, { baseUrl: server.url, tier: 'client', email: CLIENT, password: PASSWORD, smtp });
    await switchLanguage(page, 'English');
    await openMenuItem(page, 'System management', 'System upgrade');
    await page.waitForURL('**/client/systemManagement/systemUpgrade');
    await page.getByTestId('latest-version').filter({ hasText: VERSION }).waitFor();
    await page.getByTestId(`upgrade-version-${node}`).filter({ hasText: OLD }).waitFor();

    await page.locator(`tr[data-row-key="${node}"] .ant-checkbox-input`).check();
    await page.getByTestId('upgrade-selected').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await waitForToast(page, 'Upgrade request has been sent');
    await page.getByTestId(`upgrade-state-${node}`).filter({ hasText: 'Update complete' }).waitFor({ timeout: 120_000 });
    await page.getByTestId(`upgrade-version-${node}`).filter({ hasText: VERSION }).waitFor();

    await page.getByTestId(`upgrade-log-${node}`).click();
    const log = page.getByTestId('upgrade-log');
    await log.filter({ hasText: `version ${VERSION} started and serves` }).waitFor();
    expect(await log.textContent()).toContain('switched over');

    expect(agent.exitCode).toBeNull();
    expect(fs.realpathSync(path.join(stateDir, 'releases/current'))).toMatch(new RegExp(`releases/${VERSION.replace(/\./g, '\\.')}-\\d+/edgekeep$`));
    expect(fs.existsSync(path.join(stateDir, 'releases/pending.json'))).toBe(false);
    expect(await served(), agentOutput).toBe(903);
    expect(browser.errors).toEqual([]);
  });
});
