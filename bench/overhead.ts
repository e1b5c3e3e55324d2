import { execFile, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { edge } from '@edgekeep/contract';
import { splitLive } from '../apps/agent/src/render';
import { renderHttpSite } from '../apps/agent/src/render/http-site';
import { startEdge } from '../apps/agent/src/test/nginx-harness';
import { freePort, get } from '../apps/agent/src/test/servers';
import { ruleKinds } from './overhead-rules';
import { percentile, sleep } from './stats';

const HOST = 'overhead.bench.test';
const RULES = ruleKinds({ domain: HOST });
const SITE_ID = 1;

/** A plain nginx of its own: started from one configuration in a fresh prefix, in the foreground. */
const startNginx = async ({ prefix, conf }: { prefix: string; conf: string }) => {
  for (const dir of ['logs', 'temp', 'cache']) await mkdir(join(prefix, dir), { recursive: true });
  // nginx workers run unprivileged and must reach the cache.
  await chmod(prefix, 0o755);
  await writeFile(join(prefix, 'conf', 'nginx.conf'), conf);
  const child = spawn('nginx', ['-p', `${prefix}/`, '-c', 'conf/nginx.conf', '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const halt = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  return {
    prefix,
    /** Stops nginx and keeps its prefix. */
    halt,
    stop: async () => {
      await halt();
      await rm(prefix, { recursive: true, force: true });
    },
    failed: () => (child.exitCode !== null ? stderr || `nginx exited with ${child.exitCode}` : undefined),
  };
};

/** The origin both proxies forward to: nginx answering a small page, so the origin is not what is measured. */
const startOrigin = async ({ port }: { port: number }) => {
  const prefix = await mkdtemp(join(tmpdir(), 'ek-bench-origin-'));
  await mkdir(join(prefix, 'conf'));
  return startNginx({
    prefix,
    conf: `worker_processes 1; pid logs/nginx.pid; error_log logs/error.log warn; events { worker_connections 4096; }
http { access_log off; server { listen 127.0.0.1:${port}; location / { return 200 "hello from the origin\\n"; } } }\n`,
  });
};

/** The live domains as server blocks of their own, as the edge renders a domain that needs one: nginx without Lua cannot serve them from data. */
const liveAsServers = ({ state, dir }: { state: edge.DesiredState; dir: string }) => {
  const live = new Set(splitLive({ state }).live.map((d) => d.domain));
  return state.structure.sites
    .map((site) => ({ ...site, domains: site.domains.filter((d) => live.has(d.id)) }))
    .filter((site) => site.domains.length)
    .map((site) => renderHttpSite({ site, zone: state.structure.zone, dir }).conf);
};

/**
 * The edge's own rendered release with Lua taken out: no Lua module, no Lua directives, no control endpoint,
 * another port, and the live domains as server blocks. Everything else (proxy settings, cache zone, access log) is
 * the same configuration.
 */
type PlainOptions = { state: edge.DesiredState; edgePrefix: string; prefix: string; edgePort: number; port: number; controlPort: number };
const withoutLua = async ({ state, edgePrefix, prefix, edgePort, port, controlPort }: PlainOptions) => {
  await cp(await realpath(join(edgePrefix, 'conf')), join(prefix, 'conf'), { recursive: true });
  const confDir = join(prefix, 'conf');
  const lines = (await readFile(join(confDir, 'nginx.conf'), 'utf8')).split('\n');
  const control = lines.findIndex((l) => l.includes(`listen 127.0.0.1:${controlPort};`));
  const open = lines.slice(0, control).findLastIndex((l) => l.trim() === 'server {');
  const indent = lines[open].indexOf('server');
  const close = lines.findIndex((l, i) => i > control && l === `${' '.repeat(indent)}}`);
  // the HTTPS listens are the edge's ports too: the plain nginx is measured over HTTP only
  const kept = [...lines.slice(0, open), ...lines.slice(close + 1)].filter(
    (l) => !/lua|ndk_http_module|^\s*listen \d+ ssl/.test(l),
  );
  const relisten = (text: string) => text.replaceAll(`listen ${edgePort}`, `listen ${port}`);
  const conf = relisten(kept.join('\n'));
  for (const file of await readdir(join(confDir, 'sites'))) {
    const path = join(confDir, 'sites', file);
    await writeFile(path, relisten(await readFile(path, 'utf8')));
  }
  const servers = liveAsServers({ state, dir: confDir }).join('\n').split('\n').filter((l) => !/lua/.test(l));
  await writeFile(join(confDir, 'sites', 'live-as-servers.conf'), relisten(servers.join('\n')) + '\n');
  await rm(join(prefix, 'modules'), { force: true });
  await cp(join(edgePrefix, 'modules'), join(prefix, 'modules'), { recursive: true, dereference: false, verbatimSymlinks: true });
  return startNginx({ prefix, conf });
};

const wrk = async ({ port, seconds, connections }: { port: number; seconds: number; connections: number }) => {
  const { stdout } = await promisify(execFile)('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '-H', `Host: ${HOST}`, `http://127.0.0.1:${port}/`], {
    timeout: (seconds + 30) * 1000,
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  if (!rps || non2xx) throw new Error(`wrk did not measure cleanly:\n${stdout}`);
  return rps;
};

const whichWrk = () => promisify(execFile)('wrk', ['--version']).then(() => true, (e: { stdout?: string }) => Boolean(e.stdout?.includes('wrk')));

/**
 * The two nginx the overhead is measured between, both proxying HOST to one origin: the edge (its full Lua runtime,
 * with every kind of rule of the rule kinds loaded) and the same configuration with Lua taken out.
 */
export const startPair = async () => {
  const [originPort, edgePort, edgeHttps, basePort, controlPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const origin = await startOrigin({ port: originPort });
  let state: edge.DesiredStateInput = {
    revision: 1,
    structure: {
      zone: { httpPorts: [edgePort], httpsPorts: [edgeHttps], nginx: { workerProcesses: 1 } },
      sites: [{ id: SITE_ID, name: 'overhead', domains: [{ id: 1, name: HOST, origins: [{ host: '127.0.0.1', port: originPort }] }] }],
    },
  };
  for (const kind of RULES) state = kind.add({ state, siteId: SITE_ID });
  const parsed = edge.desiredState.parse(state);
  const node = await startEdge({ state: parsed, controlPort });
  const baseline = await withoutLua({ state: parsed, edgePrefix: node.prefix, prefix: await mkdtemp(join(tmpdir(), 'ek-bench-plain-')), edgePort, port: basePort, controlPort });
  const stop = async () => {
    await baseline.stop();
    await node.stop();
    await origin.stop();
  };
  try {
    await sleep(300);
    const failed = origin.failed() ?? baseline.failed();
    if (failed) throw new Error(failed);
    for (const [port, prefix] of [[edgePort, node.prefix], [basePort, baseline.prefix]] as const) {
      const res = await get({ port, host: HOST });
      const log = await readFile(join(prefix, 'logs/error.log'), 'utf8').catch(() => '');
      if (res.status !== 200 || !res.body.includes('origin')) throw new Error(`port ${port} does not proxy to the origin: ${res.status}\n${log.slice(-2000)}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    host: HOST,
    rules: RULES.map((k) => k.name),
    edge: { port: edgePort, prefix: node.prefix },
    plain: { port: basePort, prefix: baseline.prefix },
    /** Stops both nginx and keeps their prefixes (the origin keeps serving). */
    halt: async () => {
      await node.halt();
      await baseline.halt();
    },
    stop,
  };
};

/**
 * Data-plane overhead: requests per second through the edge against the same nginx configuration with Lua taken out,
 * same machine, same run, alternating rounds so that both see the same load from the rest of the machine.
 */
export const overhead = async ({ rounds = 5, seconds = 6, connections = 50 }: { rounds?: number; seconds?: number; connections?: number } = {}) => {
  if (!(await whichWrk())) throw new Error('wrk is not installed: run `bash bench/deps.sh` as root, or apt-get install wrk');
  const pair = await startPair();
  try {
    const edgeRps: number[] = [];
    const plainRps: number[] = [];
    await wrk({ port: pair.edge.port, seconds: 2, connections });
    await wrk({ port: pair.plain.port, seconds: 2, connections });
    for (let r = 0; r < rounds; r++) {
      plainRps.push(await wrk({ port: pair.plain.port, seconds, connections }));
      edgeRps.push(await wrk({ port: pair.edge.port, seconds, connections }));
      console.log(`overhead: round ${r + 1}: nginx without Lua ${plainRps[r].toFixed(0)} req/s · edge ${edgeRps[r].toFixed(0)} req/s`);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // Each round's two runs are seconds apart, so their ratio is the least disturbed by the rest of the machine.
    const ratio = percentile({ samples: edgeRps.map((e, i) => e / plainRps[i]), p: 50 });
    console.log(
      `overhead: edge with ${pair.rules.join(' + ')}: ${mean(edgeRps).toFixed(0)} req/s · same nginx without Lua: ${mean(plainRps).toFixed(0)} req/s · median ratio of the rounds ${ratio.toFixed(3)} (target ≥ 0.8; wrk -t2 -c${connections}, ${rounds} × ${seconds} s each, 1 worker each)`,
    );
    return { edgeRps: mean(edgeRps), plainRps: mean(plainRps), ratio, rules: pair.rules };
  } finally {
    await pair.stop();
  }
};
