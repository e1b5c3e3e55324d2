import { watch } from 'node:fs';
import { join } from 'node:path';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { controlStatus } from '../apps/agent/src/control/client';
import { get } from '../apps/agent/src/test/servers';
import { startEdgeStack, type EdgeStack } from '../e2e/edge-stack';
import { api } from '../e2e/harness';
import { until } from '../e2e/tenants';
import { sleep } from './stats';

const PASSWORD = 'fault drill password';
const HOST = 'drill.shop.test';

/**
 * A steady stream of requests through the edge, each to a path of its own (`/<drill>/<n>`), one at a time: counts
 * what nginx answered, by status.
 */
const traffic = (stack: EdgeStack, drill: string) => {
  const statuses = new Map<number, number>();
  let running = true;
  let sent = 0;
  const done = (async () => {
    while (running) {
      const { status } = await get({ port: stack.httpPort, host: HOST, path: `/${drill}/${sent++}` }).catch(() => ({ status: 0 }));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return { sent, statuses: Object.fromEntries(statuses) };
    },
  };
};

/** The access lines of a drill the API holds (its paths start with `/<drill>/`). */
const counted = async (stack: EdgeStack, drill: string) => {
  const window = { startTime: new Date(Date.now() - 3_600_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString(), uri: `/${drill}/`, pageSize: 10 };
  const res = await api(stack.server, 'POST', 'user/logs/access', { token: stack.user, body: window });
  if (res.status !== 200) throw new Error(`logs: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.total ?? 0;
};

/**
 * Waits until the lines of a drill stop coming in: every line shipped and folded. Answers the count and how long the
 * catch-up took after the fault ended.
 */
const settle = async (stack: EdgeStack, drill: string, expected: number) => {
  const started = performance.now();
  let last = -1;
  let same = 0;
  for (;;) {
    const n = await counted(stack, drill).catch(() => -1);
    if (n === expected) return { lines: n, catchUpMs: performance.now() - started };
    same = n === last ? same + 1 : 0;
    last = n;
    // past the expected count, or 60 s without a change: the drill lost or doubled lines
    if (n > expected || same >= 120) return { lines: n, catchUpMs: performance.now() - started };
    await sleep(500);
  }
};

/**
 * The node has applied its zone's newest revision without an error, and the nginx serving is on that revision's
 * release (names start `r<revision>-`): answers the revision.
 */
const applied = (stack: EdgeStack) =>
  until(
    'the node to apply the newest revision',
    async () => {
      const n = (await api(stack.server, 'GET', `client/nodes?zoneID=${stack.ids.zone}`, { token: stack.client })).body.data[0];
      if (n.appliedRevision !== n.revision || n.applyError !== null) return undefined;
      const status = await controlStatus({ control: { port: stack.controlPort, token: await readControlToken({ prefix: stack.prefix }) } });
      return status.release?.startsWith(`r${n.revision}-`) ? (n.revision as number) : undefined;
    },
    120_000,
  );

/** Resolves as the agent starts writing a release into the nginx prefix: an apply with a reload under way. */
const releaseStarted = (stack: EdgeStack) =>
  new Promise<void>((resolve) => {
    const watcher = watch(join(stack.prefix, 'releases'), (event) => {
      if (event !== 'rename') return;
      watcher.close();
      resolve();
    });
  });

/** A change only a reload applies: the client's http directives (the send timeout, `mb` seconds). */
const reloadingChange = async (stack: EdgeStack, mb: number) => {
  const res = await api(stack.server, 'PUT', 'client/setting/nginx/http', { token: stack.client, body: { directives: `send_timeout ${mb}s;` } });
  if (res.status !== 200) throw new Error(`nginx setting: ${res.status} ${JSON.stringify(res.body)}`);
};

type Drill = { name: string; outageMs: number; sent: number; statuses: Record<number, number>; lines: number; lost: number; doubled: number; catchUpMs: number };

const report = (d: Drill) => {
  const verdict = d.lost === 0 && d.doubled === 0 ? 'none lost, none twice' : `${d.lost} lost, ${d.doubled} twice`;
  console.log(
    `faults: ${d.name}: ${d.sent} requests (${Object.entries(d.statuses).map(([s, n]) => `${n} × ${s}`).join(', ')}), ` +
      `out ${(d.outageMs / 1000).toFixed(1)} s · ${d.lines} lines counted: ${verdict} · caught up ${(d.catchUpMs / 1000).toFixed(1)} s after it came back`,
  );
  return d;
};

/**
 * Fault drills on the whole platform on loopback (the server as `npm start` runs it, a real agent and nginx, an origin):
 * while requests stream through the edge, (1) the API is killed with SIGKILL and kept down past the agent's timeouts,
 * then started again on its data; (2) the agent is killed with SIGKILL while shipping and started again on its state;
 * (3) the agent is killed during applies that reload nginx, at several points of the apply; (4) the API is killed as
 * soon as it acknowledged such a change. Each: the edge keeps serving throughout, every request served is one access
 * line in the API, none lost, none counted twice, and after (3) and (4) the node serves the newest revision.
 */
export const faults = async ({ apiDownMs = 45_000, agentDownMs = 10_000, applyKillDelaysMs = [0, 10, 30, 100, 300, 1000] }: { apiDownMs?: number; agentDownMs?: number; applyKillDelaysMs?: number[] } = {}) => {
  const stack = await startEdgeStack({ password: PASSWORD, originName: 'drill-origin' });
  const drills: Drill[] = [];
  try {
    const made = await api(stack.server, 'POST', `user/site/${stack.ids.site}/domains`, {
      token: stack.user,
      body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] },
    });
    if (made.status !== 200) throw new Error(`domain: ${made.status} ${JSON.stringify(made.body)}`);
    await until('the edge to serve the drill host', async () => ((await get({ port: stack.httpPort, host: HOST, path: '/ready' })).status === 200 ? true : undefined), 120_000);

    const run = async (name: string, drill: string, fault: () => Promise<number>) => {
      const stream = traffic(stack, drill);
      await sleep(3000);
      const outageMs = await fault();
      await sleep(3000);
      const { sent, statuses } = await stream.stop();
      const served = Object.entries(statuses).reduce((n, [s, c]) => (s === '0' ? n : n + c), 0);
      const { lines, catchUpMs } = await settle(stack, drill, served);
      drills.push(report({ name, outageMs, sent, statuses, lines, lost: Math.max(0, served - lines), doubled: Math.max(0, lines - served), catchUpMs }));
    };

    await run('API killed (SIGKILL) while lines ship, down past the agent timeouts, started again', 'api-kill', async () => {
      const down = performance.now();
      await stack.server.kill();
      await sleep(apiDownMs);
      await stack.server.restart();
      return performance.now() - down;
    });
    await run('agent killed (SIGKILL) while lines ship, started again', 'agent-kill', async () => {
      const down = performance.now();
      await stack.killAgent();
      await sleep(agentDownMs);
      stack.restartAgent();
      return performance.now() - down;
    });
    // Each round: a change only a reload applies; the agent is killed once it has begun the release (render, nginx -t,
    // the conf link, the reload and the wait for it fall at different delays), started again at once; the node must
    // come to serve that revision's release.
    let mb = 10;
    await run(`agent killed (SIGKILL) during an apply, ${applyKillDelaysMs.length} rounds (${applyKillDelaysMs.join(', ')} ms into the release), started again`, 'apply-kill', async () => {
      let outage = 0;
      for (const delay of applyKillDelaysMs) {
        await applied(stack);
        const started = releaseStarted(stack);
        await reloadingChange(stack, ++mb);
        await started;
        await sleep(delay);
        const down = performance.now();
        await stack.killAgent();
        stack.restartAgent();
        await applied(stack);
        outage += performance.now() - down;
      }
      return outage;
    });
    // The API killed as soon as it acknowledged a change (the node is fetching or applying it), down 10 s: once back,
    // the node applies that change.
    await run('API killed (SIGKILL) right after acknowledging a change, down 10 s, started again', 'api-apply-kill', async () => {
      await applied(stack);
      await reloadingChange(stack, ++mb);
      const down = performance.now();
      await stack.server.kill();
      await sleep(10_000);
      await stack.server.restart();
      const revision = await applied(stack);
      console.log(`faults: after the API's restart the node serves revision ${revision}`);
      return performance.now() - down;
    });
  } finally {
    await stack.stop();
  }
  const held = drills.every((d) => d.lost === 0 && d.doubled === 0 && Object.keys(d.statuses).every((s) => s === '200'));
  console.log(`faults: the edge served every request and the API counted each once: ${held ? 'held' : 'NOT held'}`);
  return { drills, held };
};
