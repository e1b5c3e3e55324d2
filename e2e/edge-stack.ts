import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopNginx } from '../apps/agent/src/apply/process';
import { freePort, startOrigin } from '../apps/agent/src/test/servers';
import { api, createAccountCli, ROOT, startServer, startSmtpSink } from './harness';
import { licensedClient, signInByMail } from './tenants';

/**
 * The platform on loopback as the edge end-to-end tests use it: the server started as the README does, a licensed
 * client and its user (both signed in), a zone on free ports, a node enrolled by a real agent process that drives a
 * real nginx, a line, a product (`product` adds terms) and the user's site `shop`. `nodeDir`: the agent's directory
 * with nginx's prefix in it (`nodeDir/nginx`), as installed, instead of two temporary directories.
 */
export async function startEdgeStack({ password, originName, product = {}, agentEnv = {}, serverEnv = {}, nodeDir }: { password: string; originName: string; product?: Record<string, unknown>; agentEnv?: Record<string, string>; serverEnv?: Record<string, string>; nodeDir?: string }) {
  const prefix = nodeDir ? path.join(nodeDir, 'nginx') : fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-nginx-'));
  const stateDir = nodeDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-agent-'));
  const smtp = await startSmtpSink();
  const origin = await startOrigin({ name: originName });
  const server = await startServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: password, ...serverEnv });
  const { client } = await licensedClient({ server, smtp, password });
  await createAccountCli(server, ['--auth', 'user', '--email', 'shop@example.com', '--password', password, '--client', 'ops@example.com']);
  const user = await signInByMail({ server, smtp, tier: 'user', email: 'shop@example.com', password });
  const [httpPort, httpsPort, controlPort] = [await freePort(), await freePort(), await freePort()];
  const zone = (await api(server, 'POST', 'client/zone', { token: client, body: { name: 'e2e' } })).body.data.id;
  await api(server, 'PUT', `client/zone/${zone}/ports`, { token: client, body: { httpPorts: [httpPort], httpsPorts: [httpsPort] } });
  const node = (await api(server, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: 'local', ip: '127.0.0.1' } })).body.data.id;
  const enrol = (await api(server, 'POST', 'client/nodes/initialize', { token: client, body: { id: node } })).body.data;
  let agentOutput = '';
  /** The agent's process (again after a crash: the same state directory and nginx, as systemd would restart it). */
  const startAgent = () => {
    // the agent as a node runs it (`npm run agent -w apps/agent`), from the lane's build
    const child = spawn(process.execPath, ['--enable-source-maps', 'apps/agent/dist/main.js'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EDGEKEEP_API: server.url, EDGEKEEP_ENROLL_TOKEN: enrol.token, STATE_DIR: stateDir, NGINX_PREFIX: prefix, EDGEKEEP_CONTROL_PORT: String(controlPort), EDGEKEEP_ASN: '0', ...agentEnv },
    });
    child.stdout!.on('data', (c) => (agentOutput += c));
    child.stderr!.on('data', (c) => (agentOutput += c));
    return child;
  };
  let agent = startAgent();
  const group = (await api(server, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: 'line', nodeIDs: [node] } })).body.data.id;
  const productId = (await api(server, 'POST', 'client/product', { token: client, body: { name: 'plan', zoneID: zone, groupID: group, ...product } })).body.data.id;
  const users = await api(server, 'GET', 'client/accounts?auth=user', { token: client });
  const site = (await api(server, 'POST', 'client/site', { token: client, body: { name: 'shop', productID: productId, userID: users.body.data[0].id } })).body.data.id;

  /**
   * Sends `signal` to the agent's process group and waits until it has exited (SIGKILL after 10 s): a directory removed
   * while the agent still wrote a release in it was not empty when its removal came to it.
   */
  const endAgent = async (signal: NodeJS.Signals) => {
    if (agent.exitCode !== null || agent.signalCode !== null) return;
    const child = agent;
    const exited = new Promise((resolve) => child.once('close', resolve));
    const send = (s: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, s);
      } catch {
        // the group is gone already
      }
    };
    send(signal);
    const late = setTimeout(() => send('SIGKILL'), 10_000);
    await exited;
    clearTimeout(late);
  };
  /** Ends the agent as a crash would (SIGKILL to its process group); nginx goes on serving. */
  const killAgent = () => endAgent('SIGKILL');
  const restartAgent = () => {
    agent = startAgent();
  };
  const stop = async () => {
    await endAgent('SIGTERM');
    await stopNginx({ prefix }).catch(() => undefined);
    await server.stop();
    await origin.close();
    await smtp.close();
    // a node directory given is the caller's (a mount, say)
    if (!nodeDir) {
      fs.rmSync(prefix, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  };
  return {
    smtp, server, origin, client, user, prefix, stateDir, httpPort, httpsPort, controlPort,
    ids: { zone, node, site, product: productId },
    agentOutput: () => agentOutput,
    killAgent,
    restartAgent,
    stop,
  };
}

export type EdgeStack = Awaited<ReturnType<typeof startEdgeStack>>;
