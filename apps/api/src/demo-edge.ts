import { execFile } from 'node:child_process';
import { access, chmod, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { startAgent, stopNginx } from '@edgekeep/agent';
import type { AppDeps } from './deps';
import { DEMO_CLIENT, demoPrincipal } from './demo';
import { startDemoTraffic } from './demo-traffic';
import { demoClientNode } from './modules/nodes/repo';
import { initializeNode } from './modules/nodes/service';
import { readZoneSettings } from './modules/zones/defaults';
import { setZoneSetting } from './modules/zones/settings';

const MODULES_DIR = '/usr/lib/nginx/modules';

/** Why this machine cannot run an edge node (nginx, or its Lua module, is missing); undefined when it can. */
const nginxMissing = async (nginxBin: string) => {
  const runs = await new Promise<boolean>((resolve) => execFile(nginxBin, ['-v'], { timeout: 10_000 }, (err) => resolve(!err)));
  if (!runs) return `${nginxBin} is not installed`;
  const lua = await access(path.join(MODULES_DIR, 'ngx_http_lua_module.so')).then(() => true, () => false);
  return lua ? undefined : `the nginx Lua module is not in ${MODULES_DIR}`;
};

/**
 * nginx started as root runs its workers unprivileged, and they must get through to the cache under the prefix:
 * the directories above it get the search bit for others (not the read bit: their contents stay unlisted).
 */
const reachableByWorkers = async ({ dirs }: { dirs: string[] }) => {
  if (process.getuid?.() !== 0) return;
  for (const dir of dirs) {
    await mkdir(dir, { recursive: true });
    const { mode } = await stat(dir);
    if (!(mode & 0o001)) await chmod(dir, (mode & 0o7777) | 0o001);
  }
};

/** The demo client's node on this machine, with its zone; undefined when the operator removed it. */
const demoNode = (deps: AppDeps) => demoClientNode(deps.db, DEMO_CLIENT, 'local-edge');

/**
 * DEMO=1 on a machine with nginx and its Lua module: a real edge node for the demo zone. The agent runs in this
 * process, enrolled for the demo node like any other (through the API on its port), and drives an nginx whose
 * files live under DATA_DIR/edge and which listens on DEMO_EDGE_HTTP_PORT / DEMO_EDGE_HTTPS_PORT, so that a site
 * made in the console is served for real. Without nginx it says so once and the console runs without it.
 */
export async function startDemoEdge(deps: AppDeps) {
  const { demoEdge, dataDir, port } = deps.config;
  const missing = await nginxMissing(demoEdge.nginxBin);
  if (missing) {
    deps.log.info(`DEMO: no local edge node (${missing}); sites are configured but not served on this machine`);
    return undefined;
  }
  const node = await demoNode(deps);
  if (!node) {
    deps.log.info('DEMO: the demo node local-edge was removed; no local edge node is started');
    return undefined;
  }
  const principal = demoPrincipal(node.clientId, 'client');
  const ports = { httpPorts: [demoEdge.httpPort], httpsPorts: [demoEdge.httpsPort] };
  const settings = readZoneSettings(node.settings);
  if (JSON.stringify(settings.ports) !== JSON.stringify(ports)) await setZoneSetting(deps, principal, node.zoneId, 'ports', ports);

  const root = path.join(dataDir, 'edge');
  const stateDir = path.join(root, 'agent');
  const prefix = path.join(root, 'nginx');
  await reachableByWorkers({ dirs: [dataDir, root] });
  // A node the console made enrol again (or a fresh data directory) needs a new one-time token.
  if (!node.initializedAt) await rm(path.join(stateDir, 'identity.json'), { force: true });
  const enrolled = await access(path.join(stateDir, 'identity.json')).then(() => true, () => false);
  const enrollToken = enrolled ? undefined : (await initializeNode(deps, principal, node.nodeId)).token;
  const { version } = JSON.parse(await readFile(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };

  const agent = await startAgent({
    apiUrl: `http://127.0.0.1:${port}`,
    enrollToken,
    stateDir,
    prefix,
    controlPort: demoEdge.controlPort,
    nginxBin: demoEdge.nginxBin,
    modulesDir: MODULES_DIR,
    version,
    hostname: 'local-edge',
    log: ({ msg, ...rest }) => deps.log.info({ demoEdge: rest }, `demo edge: ${msg}`),
  });
  agent.done.catch((err: Error) => deps.log.error({ err: err.message }, 'demo edge: the agent stopped'));
  deps.log.info({ http: demoEdge.httpPort, https: demoEdge.httpsPort }, 'DEMO: local edge node started (nginx under DATA_DIR/edge)');
  const { webDist } = deps.config;
  const assets = async () =>
    webDist ? (await readdir(path.join(webDist, 'assets'))).filter((f) => /\.(js|css|svg)$/.test(f)).map((f) => `/assets/${f}`) : [];
  const traffic = startDemoTraffic({ port: demoEdge.httpPort, l4Port: demoEdge.l4Port, host: 'demo.localhost', log: deps.log, assets });
  return {
    /** Stops the demo traffic, the agent and the nginx it started. */
    stop: async () => {
      traffic.stop();
      await agent.stop().catch(() => undefined);
      await stopNginx({ prefix });
    },
  };
}
