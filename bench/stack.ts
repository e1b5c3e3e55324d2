import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { childPids, masterPid } from '../apps/agent/src/apply/nginx';
import { stopNginx } from '../apps/agent/src/apply/process';
import { controlStatus } from '../apps/agent/src/control/client';
import { freePort, get, startOrigin } from '../apps/agent/src/test/servers';
import { makeTenants, startTestApp } from '../apps/api/test/harness';
import { sleep } from './stats';

const ROOT = join(import.meta.dirname, '..');

/**
 * The whole platform on loopback: the real API (buildApp on SQLite, listening on a port), one client with a zone,
 * a node and a site of its user, the real agent (its own process, enrolled like any node) driving a real nginx,
 * and an origin. Calls go over HTTP with the user's token, as the console makes them.
 */
export const startStack = async ({ watchSeconds = 30, env = {} }: { watchSeconds?: number; env?: Record<string, string> } = {}) => {
  const t = await startTestApp({ AGENT_WATCH_SECONDS: String(watchSeconds), LOG_LEVEL: 'warn', ...env });
  const apiPort = await freePort();
  await t.app.listen({ port: apiPort, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const f = await makeTenants(t);
  const origin = await startOrigin({ name: 'bench-origin' });
  const prefix = await mkdtemp(join(tmpdir(), 'ek-bench-nginx-'));
  const stateDir = await mkdtemp(join(tmpdir(), 'ek-bench-agent-'));
  const [httpPort, httpsPort, controlPort] = [await freePort(), await freePort(), await freePort()];

  const call = async (method: string, url: string, { token = f.tokens.userA, body }: { token?: string; body?: unknown } = {}) => {
    const res = await fetch(`${apiUrl}/api/v1/${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data?: any; code?: number };
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.data;
  };
  const client = { token: f.tokens.clientA };
  const zone = (await call('POST', 'client/zone', { ...client, body: { name: 'bench' } })).id as number;
  await call('PUT', `client/zone/${zone}/ports`, { ...client, body: { httpPorts: [httpPort], httpsPorts: [httpsPort] } });
  const node = (await call('POST', 'client/node', { ...client, body: { zoneID: zone, name: 'bench-edge', ip: '127.0.0.1' } })).id as number;
  const group = (await call('POST', `client/zone/${zone}/group`, { ...client, body: { name: 'line', nodeIDs: [node] } })).id as number;
  const product = (await call('POST', 'client/product', { ...client, body: { name: 'plan', zoneID: zone, groupID: group } })).id as number;
  const newSite = async (name: string) =>
    (await call('POST', 'client/site', { ...client, body: { name, productID: product, userID: f.userA.id } })).id as number;
  const site = await newSite('bench');

  let agentOutput = '';
  /** Enrols the node (again: a fresh node in its place) and starts the agent. */
  const startAgent = async () => {
    const enrol = await call('POST', 'client/nodes/initialize', { ...client, body: { id: node } });
    const started: ChildProcess = spawn('npx', ['tsx', 'apps/agent/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EDGEKEEP_API: apiUrl, EDGEKEEP_ENROLL_TOKEN: enrol.token, STATE_DIR: stateDir, NGINX_PREFIX: prefix, EDGEKEEP_CONTROL_PORT: String(controlPort), EDGEKEEP_ASN: '0' },
    });
    started.stdout!.on('data', (c) => (agentOutput = (agentOutput + c).slice(-20_000)));
    started.stderr!.on('data', (c) => (agentOutput = (agentOutput + c).slice(-20_000)));
    return started;
  };
  const stopAgent = async () => {
    if (agent.exitCode !== null) return;
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    process.kill(-agent.pid!, 'SIGTERM');
    await exited;
  };
  let agent = await startAgent();

  /** Waits until the node reports the zone's newest revision applied. */
  const settled = async (timeoutMs = 600_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const n = (await call('GET', `client/nodes?zoneID=${zone}`, client))[0];
      if (n.appliedRevision === n.revision && n.applyError === null && n.status === 'normal') return;
      if (n.applyError) throw new Error(`the node could not apply: ${n.applyError}`);
      if (agent.exitCode !== null) throw new Error(`the agent stopped:\n${agentOutput}`);
      if (Date.now() > deadline) throw new Error(`the node did not settle:\n${agentOutput}`);
      await sleep(100);
    }
  };
  await settled(60_000);

  const control = async () => ({ port: controlPort, token: await readControlToken({ prefix }) });
  return {
    call,
    client,
    zone,
    site,
    newSite,
    origin,
    httpPort,
    httpsPort,
    settled,
    served: ({ host, path = '/' }: { host: string; path?: string }) => get({ port: httpPort, host, path }),
    /** How many times nginx loaded a configuration: a reload raises it. */
    loads: async () => (await controlStatus({ control: await control() })).loads ?? 0,
    /** The edge's control status: the live domains its Lua runtime holds and the bytes of its data dictionary. */
    edgeStatus: async () => controlStatus({ control: await control() }),
    /**
     * The node made new: agent and nginx stopped, their directories emptied, the node enrolled again and the agent
     * started, as a fresh machine put in the node's place.
     */
    freshNode: async () => {
      await stopAgent();
      await stopNginx({ prefix });
      for (const dir of [prefix, stateDir]) for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
      agent = await startAgent();
    },
    /**
     * Resident memory in bytes: the agent's process (the largest of those npx and tsx start) and nginx's largest
     * worker (the shared dictionaries' pages it touched included).
     */
    memory: async () => {
      const rss = async (pid: number) => Number((await readFile(`/proc/${pid}/status`, 'utf8')).match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) * 1024;
      const tree = async (pid: number): Promise<number[]> => [pid, ...(await Promise.all((await childPids({ pid })).map(tree))).flat()];
      const largest = async (pids: number[]) => Math.max(0, ...(await Promise.all(pids.map((pid) => rss(pid).catch(() => 0)))));
      const master = await masterPid({ prefix });
      return { agent: await largest(await tree(agent.pid!)), nginxWorker: await largest(master === undefined ? [] : await childPids({ pid: master })) };
    },
    stop: async () => {
      await stopAgent();
      await stopNginx({ prefix }).catch(() => undefined);
      await t.close();
      await origin.close();
      await Promise.all([prefix, stateDir].map((d) => rm(d, { recursive: true, force: true })));
    },
  };
};

export type Stack = Awaited<ReturnType<typeof startStack>>;
