import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { stopNginx } from '../apps/agent/src/apply/process';
import { controlStatus } from '../apps/agent/src/control/client';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { httpCall } from '../apps/agent/src/test/http-call';
import { freePort, get, startOrigin } from '../apps/agent/src/test/servers';
import { api, createAccountCli, ROOT, startServer, startSmtpSink, type Server } from './harness';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge end-to-end needs nginx with the Lua module: ${nginx.reason}`);
const PASSWORD = 'modules edge e2e password';

const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe.skipIf(!nginx.ok)('site modules: API → agent → nginx, for real', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let agent: ChildProcess;
  let agentOutput = '';
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-nginx-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-agent-'));
  let httpPort: number;
  let controlPort: number;
  let client: string;
  let user: string;
  let ids: { zone: number; node: number; site: number };

  const signIn = async (tier: 'admin' | 'client' | 'user', email: string) => {
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password: PASSWORD } });
    const code = await smtp.waitFor(email, /code is (\d{6})/, before);
    const step2 = await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } });
    return step2.body.data.accessToken as string;
  };
  const served = (host: string, pathName = '/') => get({ port: httpPort, host, path: pathName });
  /** How many times nginx loaded a configuration, from its control endpoint: a reload raises it. */
  const nginxLoads = async () => (await controlStatus({ control: { port: controlPort, token: await readControlToken({ prefix }) } })).loads;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    origin = await startOrigin({ name: 'shop-origin' });
    server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: PASSWORD });
    const made = await createAccountCli(server, ['--auth', 'client', '--email', 'ops@example.com', '--password', PASSWORD]);
    const clientId = Number(/#(\d+)/.exec(made)![1]);
    const admin = await signIn('admin', 'root@example.com');
    const terms = { name: 'e2e', days: 30, siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4', nodeMonitorSeconds: 30 };
    const license = (await api(server, 'POST', 'license', { token: admin, body: terms })).body.data.id;
    expect((await api(server, 'POST', 'license/issuing', { token: admin, body: { id: license, clientID: clientId } })).status).toBe(200);
    await createAccountCli(server, ['--auth', 'user', '--email', 'shop@example.com', '--password', PASSWORD, '--client', 'ops@example.com']);
    client = await signIn('client', 'ops@example.com');
    user = await signIn('user', 'shop@example.com');
    httpPort = await freePort();
    controlPort = await freePort();
    const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'e2e' } })).body.data.id;
    await api(server, 'PUT', `client/zone/${zone}/ports`, { token: client, body: { httpPorts: [httpPort], httpsPorts: [await freePort()] } });
    const node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'local', ip: '127.0.0.1' } })).body.data.id;
    const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: node } })).body.data;
    agent = spawn('npx', ['tsx', 'apps/agent/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        EDGEKEEP_API: server.url,
        EDGEKEEP_ENROLL_TOKEN: enrol.token,
        STATE_DIR: stateDir,
        NGINX_PREFIX: prefix,
        EDGEKEEP_CONTROL_PORT: String(controlPort),
      },
    });
    agent.stdout!.on('data', (c) => (agentOutput += c));
    agent.stderr!.on('data', (c) => (agentOutput += c));
    const group = (await api(server, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: 'line', nodeIDs: [node] } })).body.data.id;
    const product = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'plan', zoneID: zone, groupID: group } })).body.data.id;
    const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
    const site = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: product, userID: users.body.data[0].id } })).body.data.id;
    ids = { zone, node, site };
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

  let domainId: number;
  const at = (rest: string) => `user/site/${ids.site}/${rest}`;

  it('serves a domain with a custom-header module and a redirect module, pushed without a reload', async () => {
    await api(server, 'POST', at('domains'), { token: user, body: { domains: 'mods.example.test', upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    domainId = (await api(server, 'GET', at('domains'), { token: user })).body.data[0].id;
    await until('mods.example.test to be served', async () => ((await served('mods.example.test', '/')).status === 200 ? true : undefined));
    const loads = await nginxLoads();
    const headers = (await api(server, 'PUT', at('module/customHeader'), { token: user, body: { name: 'security' } })).body.data.id;
    await api(server, 'PUT', at(`customHeader/${headers}/header`), { token: user, body: { type: 'response', action: 'set', name: 'X-Frame-Options', value: 'DENY' } });
    const moves = (await api(server, 'POST', at('urlRedirects'), { token: user, body: { name: 'moves' } })).body.data.id;
    await api(server, 'PUT', at(`urlRedirect/${moves}/url`), { token: user, body: { match: 'exact', source: '/old', target: '/new', code: 301 } });
    await api(server, 'PUT', at('domains/module/customHeader'), { token: user, body: { domainIDs: [domainId], moduleID: headers } });
    await api(server, 'PUT', at('domains/module/urlRedirect'), { token: user, body: { domainIDs: [domainId], moduleID: moves } });
    const answer = await until('the header to be served', async () => {
      const r = await served('mods.example.test', '/page');
      return r.headers['x-frame-options'] === 'DENY' ? r : undefined;
    });
    expect(answer.status).toBe(200);
    const moved = await until('the redirect', async () => {
      const r = await served('mods.example.test', '/old');
      return r.status === 301 ? r : undefined;
    });
    expect(moved.headers.location).toMatch(/\/new$/);
    expect(await nginxLoads()).toBe(loads);
  });

  // The managed rule set needs libnginx-mod-http-modsecurity and modsecurity-crs (scripts/debian-packages.txt).
  it.skipIf(!fs.existsSync('/usr/share/modsecurity-crs/rules') && process.env.CI !== 'true')('turns the managed WAF on for the domain (a reload) and blocks an SQL injection, then off again', async () => {
    const injection = `/items?id=${encodeURIComponent("1' OR '1'='1' UNION SELECT password FROM users --")}`;
    const call = () => httpCall({ port: httpPort, path: injection, headers: { host: 'mods.example.test', 'user-agent': 'Mozilla/5.0', accept: 'text/html' } });
    expect((await call()).status).toBe(200);
    const waf = (await api(server, 'POST', at('module/wafs'), { token: user, body: { name: 'crs', mode: 'block', paranoia: 1 } })).body.data.id;
    await api(server, 'PUT', at('domains/module/waf'), { token: user, body: { domainIDs: [domainId], moduleID: waf } });
    await until('the WAF to block', async () => ((await call()).status === 403 ? true : undefined), 60_000);
    expect((await served('mods.example.test', '/items?id=42')).status).toBe(200);
    await api(server, 'PUT', at('domains/module/waf'), { token: user, body: { domainIDs: [domainId], moduleID: 0 } });
    await until('the WAF to be off', async () => ((await call()).status === 200 ? true : undefined), 60_000);
  });
});
