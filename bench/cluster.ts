import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDatabase } from '../apps/api/test/harness';
import { freePort, startServer, startSmtpSink, type Server } from '../e2e/harness';
import { sleep } from './stats';

/** Debian's nginx balancing the API instances with a worker per core (its default): long polls pass through, a dead instance is skipped. */
const balancerConf = (o: { port: number; upstreams: number[]; readTimeoutSeconds: number }) => `
worker_processes auto;
error_log stderr warn;
pid nginx.pid;
events { worker_connections 8192; }
http {
  access_log off;
  upstream api {
${o.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    # idle connections kept to the instances: one per watch a node holds and more (past it, each call opened one)
    keepalive 4096;
  }
  server {
    listen 127.0.0.1:${o.port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout ${o.readTimeoutSeconds}s;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;

export type Balancer = { url: string; stop: () => Promise<void> };

/** Starts Debian's nginx in front of the API instances on `upstreams` (their ports); `stop` ends it and removes its files. */
export async function startBalancer(upstreams: number[], { readTimeoutSeconds = 90 }: { readTimeoutSeconds?: number } = {}): Promise<Balancer> {
  const prefix = await mkdtemp(join(tmpdir(), 'ek-bench-lb-'));
  const port = await freePort();
  await writeFile(join(prefix, 'nginx.conf'), balancerConf({ port, upstreams, readTimeoutSeconds }));
  const nginx: ChildProcess = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  nginx.stderr!.on('data', (c) => (output += c));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      nginx.kill('SIGQUIT');
      await new Promise((r) => nginx.once('exit', r));
    }
    await rm(prefix, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 100 || nginx.exitCode !== null) {
      await stop();
      throw new Error(`the balancer did not start: ${output}`);
    }
    await sleep(100);
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}

/** The value of a metric in an instance's exposition on its metrics port (summed over its label sets that match). */
export const metric = async (port: number, name: string, match = '') => {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name} `) || l.startsWith(`${name}{`)) && l.includes(match))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
};

export type Cluster = {
  database: { url: string };
  smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  servers: Server[];
  /** Each instance's metrics port, in the order of `servers`. */
  metricsPorts: number[];
  /** The balancer, when there is more than one instance. */
  balancer?: Balancer;
  /** Where callers go: the balancer, or the one instance. */
  url: string;
  /** Stops everything it started (also what started before a failure), and drops the database. */
  stop: () => Promise<void>;
};

/**
 * `instances` API processes started as `npm start` runs them, sharing the platform keys, on one fresh PostgreSQL
 * database, with an SMTP sink for their mail; behind Debian's nginx when there are several. The root admin is
 * root@example.com with `adminPassword`. A failure while starting stops what had started.
 */
export async function startCluster({ instances, adminPassword, env = {}, balancerReadTimeoutSeconds }: { instances: number; adminPassword: string; env?: Record<string, string>; balancerReadTimeoutSeconds?: number }): Promise<Cluster> {
  const database = await createPgDatabase();
  const smtp = await startSmtpSink();
  const servers: Server[] = [];
  const metricsPorts: number[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await balancer?.stop();
    await Promise.allSettled(servers.map((s) => s.stop()));
    await smtp.close();
    await database.drop();
  };
  try {
    for (let i = 0; i < instances; i++) {
      metricsPorts.push(await freePort());
      const instanceEnv = { DATABASE_URL: database.url, SMTP_URL: smtp.url, ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: adminPassword, METRICS_PORT: String(metricsPorts[i]), LOG_LEVEL: 'warn', ...env };
      servers.push(await startServer(instanceEnv, { keysFrom: servers[0]?.dataDir }));
    }
    if (instances > 1) balancer = await startBalancer(servers.map((s) => Number(new URL(s.url).port)), { readTimeoutSeconds: balancerReadTimeoutSeconds });
  } catch (err) {
    await stop();
    throw err;
  }
  return { database, smtp, servers, metricsPorts, balancer, url: balancer?.url ?? servers[0].url, stop };
}
