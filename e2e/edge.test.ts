import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { stopNginx } from '../apps/agent/src/apply/process';
import { controlStatus } from '../apps/agent/src/control/client';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { freePort, get, startOrigin, startTcpEcho, tcpRoundTrip } from '../apps/agent/src/test/servers';
import { api, createAccountCli, ROOT, startServer, startSmtpSink, type Server } from './harness';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge end-to-end needs nginx with the Lua module: ${nginx.reason}`);
const PASSWORD = 'edge e2e password';

const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

describe.skipIf(!nginx.ok)('console → API → agent → nginx, for real', () => {
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
  let ids: { zone: number; node: number; site: number; product: number };

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
    ids = { zone, node, site, product };
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

  it('enrols the agent, which reports the node normal at the newest revision', async () => {
    const node = await until('the node to report', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.status === 'normal' && n.appliedRevision === n.revision ? n : undefined;
    });
    expect(node).toMatchObject({ initialized: true, version: expect.any(String), applyError: null });
  });

  it('serves a domain added through the API, through nginx, from its origin', async () => {
    const made = await api(server, 'POST', `user/site/${ids.site}/domains`, {
      token: user,
      body: { domains: 'shop.example.test', upstreams: [{ host: '127.0.0.1', port: origin.port }] },
    });
    expect(made.status).toBe(200);
    const answer = await until('shop.example.test to be served', async () => {
      const r = await served('shop.example.test', '/hello');
      return r.status === 200 ? r : undefined;
    });
    expect(JSON.parse(answer.body)).toMatchObject({ origin: 'shop-origin', url: '/hello', host: 'shop.example.test' });
    expect((await served('unknown.example.test')).status).toBe(903);
  });

  it('caches by a cache rule, and a URL purge queued in the console empties it', async () => {
    await api(server, 'POST', `user/site/${ids.site}/cacheRule`, { token: user, body: { type: 'fileTypes', values: ['png'], seconds: 300, mode: 'force' } });
    const hit = await until('a cache HIT', async () => {
      await served('shop.example.test', '/logo.png');
      const r = await served('shop.example.test', '/logo.png');
      return r.headers['x-cache'] === 'HIT' ? r : undefined;
    });
    expect(hit.status).toBe(200);
    const purge = await api(server, 'POST', `client/node/${ids.node}/command`, { token: client, body: { kind: 'clearUrlCache', urls: ['http://shop.example.test/logo.png'] } });
    await until('the purge to be done', async () => {
      const cmds = (await api(server, 'GET', `client/node/${ids.node}/commands`, { token: client })).body.data;
      return cmds.find((c: { id: number; status: string }) => c.id === purge.body.data.id && c.status === 'done');
    });
    expect((await served('shop.example.test', '/logo.png')).headers['x-cache']).toBe('MISS');
    await until('a HIT again', async () => ((await served('shop.example.test', '/logo.png')).headers['x-cache'] === 'HIT' ? true : undefined));
    const site = await api(server, 'DELETE', `user/site/${ids.site}/setting/currentCache`, { token: user });
    expect(site.body.data).toEqual({ nodes: 1 });
    await until("the site's purge to empty its cache", async () => ((await served('shop.example.test', '/logo.png')).headers['x-cache'] === 'MISS' ? true : undefined));
  });

  it('blocks with a blacklist entry at once, without a reload; a whitelist entry lets the address through', async () => {
    const before = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0].appliedRevision;
    const loads = await nginxLoads();
    const black = await api(server, 'POST', `user/site/${ids.site}/firewall/setting/blacklists`, { token: user, body: { ips: '127.0.0.0/8' } });
    expect(black.status).toBe(200);
    const blocked = await until('the blacklist to block', async () => {
      const r = await served('shop.example.test', '/secret');
      return r.status === 929 ? r : undefined;
    });
    expect(blocked.body).toContain('blacklist');
    expect(await nginxLoads()).toBe(loads);
    await api(server, 'POST', `user/site/${ids.site}/firewall/setting/whitelists`, { token: user, body: { ips: '127.0.0.1' } });
    await until('the whitelist to let it through', async () => ((await served('shop.example.test')).status === 200 ? true : undefined));
    const [entry] = (await api(server, 'GET', `user/site/${ids.site}/firewall/setting/blacklists`, { token: user })).body.data;
    await api(server, 'PUT', `user/site/${ids.site}/firewall/setting/blacklists/enable`, { token: user, body: { ids: [entry.id], enabled: false } });
    const after = await until('the node to apply the newest revision', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.appliedRevision === n.revision ? n : undefined;
    });
    expect(after.appliedRevision).toBeGreaterThan(before);
    expect(await nginxLoads()).toBe(loads);
  });

  it('turns a domain off when the site is paused, and back on', async () => {
    await api(server, 'PUT', 'client/site/status', { token: client, body: { ids: [ids.site], status: 0 } });
    await until('the paused site to stop being served', async () => ((await served('shop.example.test')).status === 903 ? true : undefined));
    await api(server, 'PUT', 'client/site/status', { token: client, body: { ids: [ids.site], status: 1 } });
    await until('the site to be served again', async () => ((await served('shop.example.test')).status === 200 ? true : undefined));
  });

  it('forwards TCP through a layer-4 port added through the API, and drops it when removed', async () => {
    const echo = await startTcpEcho();
    const tcpSite = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'tcp', productID: ids.product, userID: (await api(server, 'GET', 'client/accounts?auth=user', { token: client })).body.data[0].id } })).body.data.id;
    const l4 = await freePort();
    const made = await api(server, 'POST', `user/site/${tcpSite}/ports`, { token: user, body: { ports: [{ port: l4, upstreams: [{ host: '127.0.0.1', port: echo.port }] }] } });
    expect(made.status).toBe(200);
    expect(await until('the port to forward', () => tcpRoundTrip({ port: l4, message: 'hello' }))).toBe('echo:hello');
    await api(server, 'DELETE', `user/site/${tcpSite}/ports`, { token: user, body: { ids: [made.body.data[0].id] } });
    await until('the port to close', async () => ((await tcpRoundTrip({ port: l4, message: 'x' }).then(() => false, () => true)) ? true : undefined));
    await echo.close();
  });

  it('keeps serving when the control plane stops', async () => {
    await server.stop();
    const r = await served('shop.example.test', '/still-here');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).url).toBe('/still-here');
    expect(agentOutput).not.toContain(PASSWORD);
  });
});
