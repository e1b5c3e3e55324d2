import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startAgent } from './agent';
import { asnDbFile } from './geo/asn-db';
import { cityDbIn, GEO_CITY_DB } from './geo/databases';
import { jsonLog } from './sync/log';

const env = process.env;
const number = (name: string, fallback: number) => {
  const n = Number(env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
};

const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const stateDir = resolve(env.STATE_DIR ?? '/var/lib/edgekeep');
const agent = await startAgent({
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

await agent.done.catch((err: Error) => {
  jsonLog({ msg: 'agent stopped', error: err.message });
  process.exit(1);
});
