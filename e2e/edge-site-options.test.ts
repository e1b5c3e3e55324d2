import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopNginx } from '../apps/agent/src/apply/process';
import { detectNginx } from '../apps/agent/src/test/nginx-harness';
import { freePort, get, startOrigin } from '../apps/agent/src/test/servers';
import { api, createAccountCli, ROOT, startServer, startSmtpSink, type Server } from './harness';

const nginx = await detectNginx();
if (!nginx.ok && process.env.CI === 'true') throw new Error(`edge end-to-end needs nginx with the Lua module: ${nginx.reason}`);
const PASSWORD = 'edge options e2e password';

const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const post = ({ port, host, size }: { port: number; host: string; size: number }) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/upload', method: 'POST', headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end(Buffer.alloc(size, 1));
  });

describe.skipIf(!nginx.ok)('site settings made through the API take effect on a real node', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Server;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let agent: ChildProcess;
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-nginx-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-agent-'));
  let httpPort: number;
  let user: string;
  let ids: { zone: number; node: number; site: number };
  const HOST = 'shop.options.test';
  const served = (pathName: string) => get({ port: httpPort, host: HOST, path: pathName });
  const site = (rest: string) => `user/site/${ids.site}/${rest}`;
  /** Waits until the node has applied the newest revision of its zone. */
  const applied = async (client: string) =>
    until('the node to apply the newest revision', async () => {
      const n = (await api(server, 'GET', `client/nodes?zoneID=${ids.zone}`, { token: client })).body.data[0];
      return n.appliedRevision === n.revision && n.applyError === null ? n : undefined;
    });
  let client: string;

  const signIn = async (tier: 'admin' | 'client' | 'user', email: string) => {
    const before = smtp.mails.length;
    const step1 = await api(server, 'POST', `${tier}/login`, { body: { account: email, password: PASSWORD } });
    const code = await smtp.waitFor(email, /code is (\d{6})/, before);
    return (await api(server, 'POST', `${tier}/code`, { body: { account: email, onePassKey: step1.body.data.onePassKey, code } })).body.data.accessToken as string;
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    origin = await startOrigin({ name: 'options-origin' });
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
    const product = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'plan', zoneID: zone, groupID: group } })).body.data.id;
    const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
    ids = { zone, node, site: (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: product, userID: users.body.data[0].id } })).body.data.id };
    await api(server, 'POST', `user/site/${ids.site}/domains`, { token: user, body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: origin.port }] } });
    await api(server, 'POST', site('cacheRule'), { token: user, body: { type: 'fileTypes', values: ['png'], seconds: 300, mode: 'force' } });
    await until('the domain to be served', async () => ((await served('/')).status === 200 ? true : undefined), 60_000);
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

  it('warms the cache: the node fetches the URLs and the next visitor gets a HIT; the task says done', async () => {
    const task = await api(server, 'POST', site('setting/cacheTask'), { token: user, body: { type: 'warm', urls: `http://${HOST}/warm/a.png\nhttp://${HOST}/warm/b.png` } });
    expect(task.body.data).toMatchObject({ status: 'queued', nodes: 1 });
    const done = await until('the warm task to finish', async () => {
      const [t] = (await api(server, 'GET', site('setting/cacheTasks'), { token: user })).body.data;
      return t.status === 'done' ? t : undefined;
    });
    expect(done.messages).toEqual(['2 of 2 URLs fetched through the edge']);
    const hits = origin.hits.length;
    expect((await served('/warm/a.png')).headers['x-cache']).toBe('HIT');
    expect((await served('/warm/b.png')).headers['x-cache']).toBe('HIT');
    expect(origin.hits.length).toBe(hits);
  });

  it('purges a URL prefix (type 2): everything under it is fetched anew, the rest stays cached', async () => {
    await served('/keep/c.png');
    expect((await served('/keep/c.png')).headers['x-cache']).toBe('HIT');
    const purge = await api(server, 'DELETE', site('setting/urlCache'), { token: user, body: { type: 2, urls: `http://${HOST}/warm/` } });
    expect(purge.body.data).toEqual({ nodes: 1 });
    await until('the prefix purge', async () => ((await served('/warm/a.png')).headers['x-cache'] === 'MISS' ? true : undefined));
    expect((await served('/keep/c.png')).headers['x-cache']).toBe('HIT');
  });

  it('refuses a body over the site limit with 413 once set, and takes it with the check off', async () => {
    await api(server, 'PUT', site('setting/clientMaxBodySize'), { token: user, body: { clientMaxBodySize: 1 } });
    await applied(client);
    expect(await post({ port: httpPort, host: HOST, size: 2 * 1024 * 1024 })).toBe(413);
    await api(server, 'PUT', site('setting/clientMaxBodySize'), { token: user, body: { clientMaxBodySize: 0 } });
    await applied(client);
    expect(await post({ port: httpPort, host: HOST, size: 2 * 1024 * 1024 })).toBe(200);
  });
});
