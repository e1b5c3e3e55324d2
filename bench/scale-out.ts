import { setMaxListeners } from 'node:events';
import { stateDelta, type edge } from '@edgekeep/contract';
import pg from 'pg';
import { api, type Server } from '../e2e/harness';
import { userWithPlan } from '../e2e/tenants';
import { metric, startCluster, type Cluster } from './cluster';
import { percentile, sleep, summary } from './stats';
import { swarmConnection, swarmStream } from './swarm-http';

const PASSWORD = 'scale-out bench password';
/** How long an agent's watch waits (the product's default), how often it reports and asks for queued commands. */
const WATCH_SECONDS = 30;
const REPORT_MS = 10_000;
const COMMANDS_MS = 5_000;

type SimAgent = { credential: string; known: number; held?: edge.DesiredState; seen: Map<number, number>; woke: Map<number, number>; reportNow: () => void; pollNow: () => void };

/**
 * A swarm of simulated agents in this process, each following the protocol as the agent does (apps/agent/src/sync,
 * report, commands): it keeps a watch stream open through the balancer, naming the `etag` of the state it holds
 * (`base`); after each line that does not say none wait it asks for queued commands; when the revision moved it takes
 * the delta the line carried (or asks for the state with that `base`, and again without it when the delta is from
 * another build, and then opens the stream again naming what it holds), and acknowledges it with a report at once,
 * which restarts its 10 s reporting; commands are also asked for every 5 s. Nothing is applied to nginx and states are
 * not checked against the schema.
 */
function startSwarm(o: { url: string; credentials: string[] }) {
  const stop = new AbortController();
  // every agent's watch stream listens to it
  setMaxListeners(0, stop.signal);
  const agents: SimAgent[] = o.credentials.map((credential) => ({ credential, known: 0, seen: new Map(), woke: new Map(), reportNow: () => undefined, pollNow: () => undefined }));
  const failures = { watch: 0, state: 0, report: 0, commands: 0 };
  // Each agent holds two connections, as the agent's own client does: its watch stream, and one for its other calls.
  // A stop closes them all, which fails the calls under way.
  const { hostname, port } = new URL(o.url);
  const connections = new Map(agents.map((a) => [a, swarmConnection({ host: hostname, port: Number(port) })]));
  const call = async (a: SimAgent, path: string, body?: unknown) => {
    const answer = await connections.get(a)!.call(`/agent/v1/${path}`, `authorization: Node ${a.credential}\r\n`, body === undefined ? undefined : JSON.stringify(body));
    if (answer.status !== 200) throw new Error(String(answer.status));
    return JSON.parse(answer.body.toString()) as unknown;
  };
  const report = (a: SimAgent) =>
    call(a, 'report', {
      version: 'swarm', appliedRevision: a.held?.revision ?? null, applyError: null, nginxRunning: true, cpuPercent: 1,
      memory: { totalBytes: 1e9, usedBytes: 1e8 }, disk: { totalBytes: 1e10, usedBytes: 1e9 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [0, 0, 0], uptimeSeconds: 1,
    });
  const commands = (a: SimAgent) => call(a, 'commands').catch(() => failures.commands++);
  /** The state the answer gives the agent, as `receivedState` takes it: undefined for a delta from a build it does not hold. */
  const answers = { delta: 0, whole: 0, otherBase: 0, inWatch: 0 };
  const received = (a: SimAgent, json: unknown) => {
    if (!stateDelta.isDelta(json)) return answers.whole++, json as edge.DesiredState;
    const delta = json as stateDelta.StateDelta;
    if (a.held?.etag !== delta.base) return void answers.otherBase++;
    answers.delta++;
    return stateDelta.applyDelta(a.held, delta);
  };
  /** The state the watch's delta makes (when it is from the build held), else asked for as the agent does. */
  const fetchState = async (a: SimAgent, delta?: unknown) => {
    const carried = delta === undefined ? undefined : received(a, delta);
    if (carried) answers.inWatch++;
    const state =
      carried ??
      received(a, await call(a, a.held?.etag ? `state?base=${encodeURIComponent(a.held.etag)}` : 'state')) ??
      received(a, await call(a, 'state'))!;
    a.held = state;
    a.seen.set(state.revision, Date.now());
    a.known = state.revision;
  };
  const follow = async (a: SimAgent) => {
    let needState = true;
    while (!stop.signal.aborted) {
      let opened: number | undefined;
      let fetching = false;
      try {
        if (needState) {
          await fetchState(a).catch((err: unknown) => (failures.state++, Promise.reject(err)));
          needState = false;
          a.reportNow();
        }
        const base = a.held?.etag ? `&base=${encodeURIComponent(a.held.etag)}` : '';
        opened = Date.now();
        const lines = swarmStream({ host: hostname, port: Number(port), path: `/agent/v1/watch/stream?since=${a.known}${base}`, headers: { authorization: `Node ${a.credential}` }, signal: stop.signal });
        for await (const line of lines) {
          const { revision, commands, delta } = JSON.parse(line) as { revision: number; commands?: boolean; delta?: { etag?: string } };
          if (commands !== false) a.pollNow();
          if (revision === a.known) continue;
          a.woke.set(revision, Date.now());
          fetching = true;
          await fetchState(a, delta).catch((err: unknown) => (failures.state++, Promise.reject(err)));
          fetching = false;
          a.reportNow();
          // the stream's next delta is from the build this one led to: holding another, the agent watches anew
          if (a.held?.etag !== delta?.etag) break;
        }
      } catch {
        if (stop.signal.aborted) return;
        failures.watch++;
        // a stream cut after it lived a while is opened again at once, as the agent does
        if (opened !== undefined && !fetching && Date.now() - opened >= 1000) continue;
        needState = true;
        await sleep(500 + Math.random() * 500);
      }
    }
  };
  /** Runs `task` every `ms` from `offset`, and at once on `now()`, which starts the period again (as the agent's reporter and command poller). */
  const every = (task: () => Promise<unknown>, ms: number, offset: number) => {
    let timer = setTimeout(run, offset);
    function run() {
      clearTimeout(timer);
      void task().finally(() => {
        clearTimeout(timer);
        if (!stop.signal.aborted) timer = setTimeout(run, ms);
      });
    }
    return { now: run, stop: () => clearTimeout(timer) };
  };
  const periodic = agents.flatMap((a, i) => {
    const reports = every(() => report(a).catch(() => failures.report++), REPORT_MS, (i / agents.length) * REPORT_MS);
    const polls = every(() => commands(a), COMMANDS_MS, (i / agents.length) * COMMANDS_MS);
    a.reportNow = reports.now;
    a.pollNow = polls.now;
    return [reports, polls];
  });
  const loops = agents.map(follow);
  return {
    agents,
    failures,
    /** The state answers: deltas (of them, those a watch carried), whole states, deltas from a build the agent did not hold. */
    answers,
    /** Resolves when every agent holds a revision above `above`; answers the time each first held it and was told of it by a watch. */
    async allPast(above: number, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (agents.some((a) => a.known <= above)) {
        if (Date.now() > deadline) throw new Error(`${agents.filter((a) => a.known <= above).length} agents never saw a revision past ${above}`);
        await sleep(20);
      }
      const first = (times: Map<number, number>) => Math.min(...[...times].filter(([r]) => r > above).map(([, at]) => at));
      return { held: agents.map((a) => first(a.seen)), woke: agents.map((a) => first(a.woke)) };
    },
    async stop() {
      stop.abort();
      periodic.forEach((p) => p.stop());
      for (const conn of connections.values()) conn.close();
      await Promise.allSettled(loops);
    },
  };
}

/**
 * Scale-out (issue: several API instances on one PostgreSQL): `instances` API processes (`npm start`, sharing the
 * platform keys) on a fresh PostgreSQL database behind Debian's nginx, and a swarm of `agents` simulated nodes of one
 * zone, enrolled like real ones. A blacklist change made through each instance in turn (directly, not through the
 * balancer) must reach every agent, the first through each instance told apart; then one instance is killed (SIGKILL) and a change must still reach all, and the
 * scheduled jobs keep running once across the instances left. Figures come from the instances' /metrics.
 * `SCALE_OUT_AGENTS` and `SCALE_OUT_CHANGES` set the number of agents and of changes.
 */
export const scaleOut = async ({
  instances = 3,
  agents = Number(process.env.SCALE_OUT_AGENTS ?? 1000),
  changes = Number(process.env.SCALE_OUT_CHANGES ?? 12),
}: { instances?: number; agents?: number; changes?: number } = {}) => {
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
    let changed = 0;
    /** A change through `server`: when each agent held it and when its watch line told it, after the change's call began. */
    const change = async (server: Server) => {
      const above = Math.max(...swarm!.agents.map((a) => a.known));
      const t0 = Date.now();
      const res = await api(server, 'POST', `user/site/${site}/firewall/setting/blacklists`, { token: plan.userToken, body: { ips: `198.51.100.${changed++ % 250}` } });
      if (res.status !== 200) throw new Error(`blacklist change refused: ${JSON.stringify(res.body)}`);
      const call = Date.now() - t0;
      const { held, woke } = await swarm!.allPast(above);
      return { call, held: held.map((at) => at - t0), woke: woke.map((at) => at - t0) };
    };
    /** A change's p50 and max (ms): a slow change stands out. */
    const shape = (held: number[]) => `${percentile({ samples: held, p: 50 })}/${Math.max(...held)}`;
    // The first change through each instance after it started, apart: its code runs for the first time (V8 has yet to
    // compile the paths a change takes), which an instance that has served for a while no longer pays.
    const firsts: number[][] = [];
    for (const server of servers) {
      firsts.push((await change(server)).held);
      await sleep(1000);
    }
    const firstHeld = firsts.flat();
    console.log(`scale-out, the first change through each instance after the start (not counted below) → held by all ${agents}: ${summary({ samples: firstHeld })}; each change's p50/max ms: ${firsts.map(shape).join(' ')}`);

    const cpuBefore = await Promise.all(metricsPorts.map((p) => metric(p, 'process_cpu_seconds_total')));
    const started = performance.now();
    const swarmCpu = process.cpuUsage();
    const latencies: number[] = [];
    /** From the change to the watch line telling each agent that the revision moved. */
    const wakes: number[] = [];
    /** How long the change's own call took (its answer comes once the change is committed). */
    const calls: number[] = [];
    /** Each change's p50 and max, in order. */
    const perChange: string[] = [];
    for (let i = 0; i < changes; i++) {
      const { call, held, woke } = await change(servers[i % instances]);
      latencies.push(...held);
      wakes.push(...woke);
      calls.push(call);
      perChange.push(shape(held));
      await sleep(1000);
    }
    const wallSeconds = (performance.now() - started) / 1000;
    const swarmPercent = (((c) => c.user + c.system)(process.cpuUsage(swarmCpu)) / 1e6 / wallSeconds) * 100;
    const cpuAfter = await Promise.all(metricsPorts.map((p) => metric(p, 'process_cpu_seconds_total')));
    const rss = await Promise.all(metricsPorts.map((p) => metric(p, 'process_resident_memory_bytes')));
    const watchers = await Promise.all(metricsPorts.map((p) => metric(p, 'edgekeep_agent_watchers')));
    await pgAdmin.connect();
    const connections = Number((await pgAdmin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName])).rows[0].n);
    const propagation = { p50: percentile({ samples: latencies, p: 50 }), p99: percentile({ samples: latencies, p: 99 }), max: Math.max(...latencies) };
    console.log(`scale-out, a blacklist change through each instance in turn → held by all ${agents} agents (n=${latencies.length}): ${summary({ samples: latencies })}; the change's call alone: ${summary({ samples: calls })}; the watch lines telling them: ${summary({ samples: wakes.filter(Number.isFinite) })}; each change's p50/max ms: ${perChange.join(' ')}`);
    metricsPorts.forEach((_, i) =>
      console.log(`scale-out, instance ${i + 1}: CPU ${(((cpuAfter[i] - cpuBefore[i]) / wallSeconds) * 100).toFixed(0)} % of a core · RSS ${(rss[i] / 2 ** 20).toFixed(0)} MB · ${watchers[i]} watches waiting`),
    );
    console.log(`scale-out: the swarm's own process (and this bench) ${swarmPercent.toFixed(0)} % of a core; PostgreSQL connections in use ${connections}; swarm failures ${JSON.stringify(swarm.failures)}; state answers ${JSON.stringify(swarm.answers)}`);

    // One instance dies: the balancer skips it, its agents watch through the others, the jobs go on once.
    const jobRuns = () => Promise.all(metricsPorts.slice(0, instances - 1).map((p) => metric(p, 'edgekeep_job_runs_total', 'job="resolution-sweep"')));
    const killed = servers[instances - 1];
    const killedAt = Date.now();
    await killed.kill();
    const afterKill = (await change(servers[0])).held;
    const runsBefore = (await jobRuns()).reduce((a, b) => a + b, 0);
    await sleep(30_000);
    const runsAfter = (await jobRuns()).reduce((a, b) => a + b, 0);
    const failover = { afterKill: { p50: percentile({ samples: afterKill, p: 50 }), p99: percentile({ samples: afterKill, p: 99 }), max: Math.max(...afterKill) }, jobRunsIn30s: runsAfter - runsBefore };
    console.log(
      `scale-out, instance ${instances} killed (SIGKILL) ${((Date.now() - killedAt) / 1000).toFixed(0)} s ago: a change → all agents ${summary({ samples: afterKill })}; ` +
        `resolution-sweep ran ${failover.jobRunsIn30s} times in 30 s across the ${instances - 1} left (due every 10 s)`,
    );
    const firstChanges = { p50: percentile({ samples: firstHeld, p: 50 }), p99: percentile({ samples: firstHeld, p: 99 }), max: Math.max(...firstHeld) };
    return { instances, agents, firstChanges, propagation, cpuPercent: cpuAfter.map((c, i) => ((c - cpuBefore[i]) / wallSeconds) * 100), rssMb: rss.map((r) => r / 2 ** 20), connections, failures: swarm.failures, swarmCpuPercent: swarmPercent, failover };
  } finally {
    await swarm?.stop();
    await pgAdmin?.end().catch(() => undefined);
    await cluster?.stop();
  }
};
