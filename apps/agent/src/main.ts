import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startAgent } from './agent';
import { asnDbFile } from './geo/asn-db';
import { cityDbIn, GEO_CITY_DB } from './geo/databases';
import { createAgentMetrics } from './metrics/metrics';
import { serveMetrics } from './metrics/serve';
import { jsonLog } from './sync/log';

const env = process.env;
const number = (name: string, fallback: number) => {
  const n = Number(env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
};

const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

// An upgrade starts a new version this way before switching to it: every module loads, the version is printed.
if (env.EDGEKEEP_SELF_CHECK === '1') {
  process.stdout.write(`${version}\n`);
  process.exit(0);
}
/** The exit code that asks bin/edgekeep-agent to start the agent again (from releases/current after an upgrade). */
const RESTART_CODE = 75;

const stateDir = resolve(env.STATE_DIR ?? '/var/lib/edgekeep');
const metrics = createAgentMetrics();
// on the node's loopback unless EDGEKEEP_METRICS_HOST names a private address; EDGEKEEP_METRICS_PORT=off: none
if (env.EDGEKEEP_METRICS_PORT !== 'off') {
  await serveMetrics(metrics.registry, { host: env.EDGEKEEP_METRICS_HOST || '127.0.0.1', port: number('EDGEKEEP_METRICS_PORT', 9465), log: jsonLog });
}
const agent = await startAgent({
  metrics,
  apiUrl: env.EDGEKEEP_API,
  enrollToken: env.EDGEKEEP_ENROLL_TOKEN,
  stateDir,
  prefix: resolve(env.NGINX_PREFIX ?? '/var/lib/edgekeep/nginx'),
  controlPort: number('EDGEKEEP_CONTROL_PORT', 8099),
  nginxBin: env.NGINX_BIN ?? 'nginx',
  modulesDir: env.NGINX_MODULES_DIR ?? '/usr/lib/nginx/modules',
  builtinModules: env.NGINX_BUILTIN_MODULES === '1',
  asnDb: env.EDGEKEEP_ASN === '0' ? undefined : env.EDGEKEEP_ASN_DB ? resolve(env.EDGEKEEP_ASN_DB) : asnDbFile({ stateDir }),
  buildAsn: !env.EDGEKEEP_ASN_DB,
  countryDb: env.EDGEKEEP_COUNTRY_DB ? resolve(env.EDGEKEEP_COUNTRY_DB) : undefined,
  cityDb: env.EDGEKEEP_CITY === '0' ? undefined : env.EDGEKEEP_CITY_DIR ? cityDbIn({ dir: resolve(env.EDGEKEEP_CITY_DIR) }) : GEO_CITY_DB,
  version,
  log: jsonLog,
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    jsonLog({ msg: `${signal}: stopping; nginx keeps serving` });
    agent.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

void agent.restart.then(async () => {
  if (stopping) return;
  stopping = true;
  jsonLog({ msg: `upgraded: restarting (exit ${RESTART_CODE}); nginx keeps serving` });
  await agent.stop().catch(() => undefined);
  process.exit(RESTART_CODE);
});

await agent.done.catch((err: Error) => {
  jsonLog({ msg: 'agent stopped', error: err.message });
  process.exit(1);
});
