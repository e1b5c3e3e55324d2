import { setMaxListeners } from 'node:events';
import pg from 'pg';
import { api, type Server } from '../e2e/harness';
import { userWithPlan } from '../e2e/tenants';
import { metric, startCluster, type Cluster } from './cluster';
import { percentile, sleep, summary } from './stats';

const PASSWORD = 'scale-out bench password';
/** How long an agent's watch waits (the product's default), and how often it reports. */
const WATCH_SECONDS = 30;
const REPORT_MS = 10_000;

type SimAgent = { credential: string; known: number; seen: Map<number, number> };

/**
 * A swarm of simulated agents in this process: each long-polls `watch` through the balancer, fetches its state when
 * the revision moved, acknowledges it with a report at once (as the agent does after an apply) and reports every
 * 10 s. Nothing is applied.
 */
function startSwarm(o: { url: string; credentials: string[] }) {
  // fetch's own pool: connections per origin unlimited, kept alive, answers waited for 300 s (a watch takes 30)
  const stop = new AbortController();
  // Every fetch of the swarm listens on this one signal (fetch lets go of a listener only when its request is collected).
  setMaxListeners(0, stop.signal);
  const agents: SimAgent[] = o.credentials.map((credential) => ({ credential, known: 0, seen: new Map() }));
  const failures = { watch: 0, state: 0, report: 0 };
  const report = (a: SimAgent) =>
    fetch(`${o.url}/agent/v1/report`, {
      method: 'POST',
      signal: stop.signal,
      headers: { authorization: `Node ${a.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: 'swarm', appliedRevision: a.known || null, applyError: null, nginxRunning: true, cpuPercent: 1,
        memory: { totalBytes: 1e9, usedBytes: 1e8 }, disk: { totalBytes: 1e10, usedBytes: 1e9 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [0, 0, 0], uptimeSeconds: 1,
      }),
    }).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(String(r.status)))));
  const get = (a: SimAgent, path: string) =>
    fetch(`${o.url}/agent/v1/${path}`, { signal: stop.signal, headers: { authorization: `Node ${a.credential}` } }).then((r) =>
      r.ok ? (r.json() as Promise<{ revision: number }>) : Promise.reject(new Error(String(r.status))),
    );
  const follow = async (a: SimAgent) => {
    while (!stop.signal.aborted) {
      try {
        const { revision } = await get(a, `watch?since=${a.known}`);
        if (revision === a.known) continue;
        const state = await get(a, 'state').catch((err: unknown) => ((failures.state++), Promise.reject(err)));
        a.seen.set(state.revision, Date.now());
        a.known = state.revision;
        await report(a).catch(() => failures.report++);
      } catch {
        if (stop.signal.aborted) return;
        failures.watch++;
        await sleep(500 + Math.random() * 500);
      }
    }
  };
  const reporters = agents.map((a, i) => {
    let timer: NodeJS.Timeout;
    const tick = () => void report(a).catch(() => failures.report++).finally(() => (timer = setTimeout(tick, REPORT_MS)));
    timer = setTimeout(tick, (i / agents.length) * REPORT_MS);
    return () => clearTimeout(timer);
  });
  const loops = agents.map(follow);
  return {
    agents,
    failures,
    /** Resolves when every agent holds a revision above `above`; answers the time each first held it. */
    async allPast(above: number, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (agents.some((a) => a.known <= above)) {
        if (Date.now() > deadline) throw new Error(`${agents.filter((a) => a.known <= above).length} agents never saw a revision past ${above}`);
        await sleep(20);
      }
      return agents.map((a) => Math.min(...[...a.seen].filter(([r]) => r > above).map(([, at]) => at)));
    },
    async stop() {
      stop.abort();
      reporters.forEach((r) => r());
      await Promise.allSettled(loops);
    },
  };
}

/**
 * Scale-out (issue: several API instances on one PostgreSQL): `instances` API processes (`npm start`, sharing the
 * platform keys) on a fresh PostgreSQL database behind Debian's nginx, and a swarm of `agents` simulated nodes of one
 * zone, enrolled like real ones. A blacklist change made through each instance in turn (directly, not through the
 * balancer) must reach every agent; then one instance is killed (SIGKILL) and a change must still reach all, and the
 * scheduled jobs keep running once across the instances left. Figures come from the instances' /metrics.
 */
export const scaleOut = async ({ instances = 3, agents = 1000, changes = 12 }: { instances?: number; agents?: number; changes?: number } = {}) => {
  let cluster: Cluster | undefined;
  let swarm: ReturnType<typeof startSwarm> | undefined;
  let pgAdmin: pg.Client | undefined;
  try {
    cluster = await startCluster({ instances, adminPassword: PASSWORD, env: { AGENT_WATCH_SECONDS: String(WATCH_SECONDS) }, balancerReadTimeoutSeconds: WATCH_SECONDS * 3 });
    const { smtp, servers, metricsPorts } = cluster;
    const balancer = cluster.balancer!;
    pgAdmin = new pg.Client({ connectionString: cluster.database.url });
    const dbName = new URL(cluster.database.url).pathname.slice(1);
    const [first] = servers;
    const plan = await userWithPlan({ server: first, smtp, password: PASSWORD, user: 'swarm@example.com' });
    const as = { token: plan.client };
    const made = performance.now();
    const nodes: number[] = [plan.node];
    for (let i = 1; i < agents; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, agents - i) }, (_, k) => api(first, 'POST', 'client/node', { ...as, body: { zoneID: plan.zone, name: `swarm-${i + k}`, ip: `10.${(i + k) >> 8}.${(i + k) & 255}.1` } })),
      );
      nodes.push(...batch.map((r) => r.body.data.id as number));
    }
    const site = await plan.newSite('swarm');
    const credentials: string[] = [];
    for (let i = 0; i < nodes.length; i += 50) {
      credentials.push(
        ...(await Promise.all(
          nodes.slice(i, i + 50).map(async (id) => {
            const init = await api(first, 'POST', 'client/nodes/initialize', { ...as, body: { id } });
            const res = await fetch(`${balancer.url}/agent/v1/enroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: init.body.data.token, hostname: `swarm-${id}`, version: 'swarm' }) });
            return ((await res.json()) as { credential: string }).credential;
          }),
        )),
      );
    }
    console.log(`scale-out: ${instances} API instances on one PostgreSQL behind nginx; ${agents} nodes made and enrolled in ${((performance.now() - made) / 1000).toFixed(1)} s`);

    swarm = startSwarm({ url: balancer.url, credentials });
    await swarm.allPast(0);
    await sleep(2000);
    const cpuBefore = await Promise.all(metricsPorts.map((p) => metric(p, 'process_cpu_seconds_total')));
    const started = performance.now();
    const latencies: number[] = [];
    /** How long the change's own call took (its answer comes once the change is committed). */
    const calls: number[] = [];
    const change = async (server: Server) => {
      const above = Math.max(...swarm!.agents.map((a) => a.known));
      const t0 = Date.now();
      const res = await api(server, 'POST', `user/site/${site}/firewall/setting/blacklists`, { token: plan.userToken, body: { ips: `198.51.100.${(latencies.length / agents) % 250}` } });
      if (res.status !== 200) throw new Error(`blacklist change refused: ${JSON.stringify(res.body)}`);
      calls.push(Date.now() - t0);
      const seen = await swarm!.allPast(above);
      return seen.map((at) => at - t0);
    };
    for (let i = 0; i < changes; i++) {
      latencies.push(...(await change(servers[i % instances])));
      await sleep(1000);
    }
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuAfter = await Promise.all(metricsPorts.map((p) => metric(p, 'process_cpu_seconds_total')));
    const rss = await Promise.all(metricsPorts.map((p) => metric(p, 'process_resident_memory_bytes')));
    const watchers = await Promise.all(metricsPorts.map((p) => metric(p, 'edgekeep_agent_watchers')));
    await pgAdmin.connect();
    const connections = Number((await pgAdmin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName])).rows[0].n);
    const propagation = { p50: percentile({ samples: latencies, p: 50 }), p99: percentile({ samples: latencies, p: 99 }), max: Math.max(...latencies) };
    console.log(`scale-out, a blacklist change through each instance in turn → held by all ${agents} agents (n=${latencies.length}): ${summary({ samples: latencies })}; the change's call alone: ${summary({ samples: calls })}`);
    metricsPorts.forEach((_, i) =>
      console.log(`scale-out, instance ${i + 1}: CPU ${(((cpuAfter[i] - cpuBefore[i]) / wallSeconds) * 100).toFixed(0)} % of a core · RSS ${(rss[i] / 2 ** 20).toFixed(0)} MB · ${watchers[i]} watches waiting`),
    );
    console.log(`scale-out: PostgreSQL connections in use ${connections}; swarm failures ${JSON.stringify(swarm.failures)}`);

    // One instance dies: the balancer skips it, its agents watch through the others, the jobs go on once.
    const jobRuns = () => Promise.all(metricsPorts.slice(0, instances - 1).map((p) => metric(p, 'edgekeep_job_runs_total', 'job="resolution-sweep"')));
    const killed = servers[instances - 1];
    const killedAt = Date.now();
    await killed.kill();
    const afterKill = await change(servers[0]);
    const runsBefore = (await jobRuns()).reduce((a, b) => a + b, 0);
    await sleep(30_000);
    const runsAfter = (await jobRuns()).reduce((a, b) => a + b, 0);
    const failover = { afterKill: { p50: percentile({ samples: afterKill, p: 50 }), p99: percentile({ samples: afterKill, p: 99 }), max: Math.max(...afterKill) }, jobRunsIn30s: runsAfter - runsBefore };
    console.log(
      `scale-out, instance ${instances} killed (SIGKILL) ${((Date.now() - killedAt) / 1000).toFixed(0)} s ago: a change → all agents ${summary({ samples: afterKill })}; ` +
        `resolution-sweep ran ${failover.jobRunsIn30s} times in 30 s across the ${instances - 1} left (due every 10 s)`,
    );
    return { instances, agents, propagation, cpuPercent: cpuAfter.map((c, i) => ((c - cpuBefore[i]) / wallSeconds) * 100), rssMb: rss.map((r) => r / 2 ** 20), connections, failures: swarm.failures, failover };
  } finally {
    await swarm?.stop();
    await pgAdmin?.end().catch(() => undefined);
    await cluster?.stop();
  }
};
