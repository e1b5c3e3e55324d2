import { watch } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readControlToken } from '../apps/agent/src/apply/layout';
import { controlStatus } from '../apps/agent/src/control/client';
import { get } from '../apps/agent/src/test/servers';
import { fillDisk, mountTmpfs, unmountTmpfs } from '../apps/agent/src/test/tmpfs';
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
    sent: () => sent,
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
  let changedAt = started;
  for (;;) {
    const n = await counted(stack, drill).catch(() => -1);
    if (n === expected) return { lines: n, catchUpMs: performance.now() - started };
    same = n === last ? same + 1 : 0;
    if (n !== last) changedAt = performance.now();
    last = n;
    // past the expected count, or 60 s without a change: the drill lost or doubled lines; caught up at the last change
    if (n > expected || same >= 120) return { lines: n, catchUpMs: changedAt - started };
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

/**
 * `unwritable`: requests answered while nginx could not write its access log (a full disk, and the second after it was
 * freed, in which nginx still skips the log); their lines are nginx's loss.
 */
type Drill = { name: string; outageMs: number; sent: number; statuses: Record<number, number>; lines: number; lost: number; doubled: number; catchUpMs: number; unwritable: number; note?: string };

/** What the console shows of the node: whether its last report says the disk is full. */
const nodeDiskFull = async (stack: EdgeStack) => {
  const res = await api(stack.server, 'GET', `client/nodes?keyword=local`, { token: stack.client });
  return (res.body.data as { id: number; diskFull: unknown }[] | undefined)?.find((n) => n.id === stack.ids.node)?.diskFull ?? null;
};

const report = (d: Drill) => {
  const verdict =
    d.lost === 0 && d.doubled === 0
      ? 'none lost, none twice'
      : `${d.lost} lost${d.unwritable ? ` (of ${d.unwritable} answered while nginx could not write its log)` : ''}, ${d.doubled} twice`;
  console.log(
    `faults: ${d.name}: ${d.sent} requests (${Object.entries(d.statuses).map(([s, n]) => `${n} × ${s}`).join(', ')}), ` +
      `out ${(d.outageMs / 1000).toFixed(1)} s · ${d.lines} lines counted: ${verdict} · caught up ${(d.catchUpMs / 1000).toFixed(1)} s after it came back` +
      (d.note ? ` · ${d.note}` : ''),
  );
  return d;
};

/**
 * Fault drills on the whole platform on loopback (the server as `npm start` runs it, a real agent and nginx, an origin):
 * while requests stream through the edge, (1) the API is killed with SIGKILL and kept down past the agent's timeouts,
 * then started again on its data; (2) the agent is killed with SIGKILL while shipping and started again on its state;
 * (3) the agent is killed during applies that reload nginx, at several points of the apply; (4) the API is killed as
 * soon as it acknowledged such a change. Each: the edge keeps serving throughout, every request served is one access
 * line in the API, none lost, none counted twice, and after (3) and (4) the node serves the newest revision. (5) As
 * root, the node's directory is a 64 MiB tmpfs that is filled for `diskFullMs`, then freed: the edge keeps serving, the
 * console shows the node's disk full and then not, and no line is counted twice; the lines of requests answered while
 * full (and in the second after) are lost (nginx could not write them), at most that many.
 */
export const faults = async ({ apiDownMs = 45_000, agentDownMs = 10_000, applyKillDelaysMs = [0, 10, 30, 100, 300, 1000], diskFullMs = 20_000 }: { apiDownMs?: number; agentDownMs?: number; applyKillDelaysMs?: number[]; diskFullMs?: number } = {}) => {
  const tmpfs = await mountTmpfs({ size: '64m' });
  if (!tmpfs.ok) console.log(`faults: no disk-full drill: ${tmpfs.reason}`);
  const stack = await startEdgeStack({ password: PASSWORD, originName: 'drill-origin', nodeDir: tmpfs.ok ? tmpfs.dir : undefined }).catch(async (err: Error) => {
    if (tmpfs.ok) await unmountTmpfs({ dir: tmpfs.dir });
    throw err;
  });
  const drills: Drill[] = [];
  try {
    const made = await api(stack.server, 'POST', `user/site/${stack.ids.site}/domains`, {
      token: stack.user,
      body: { domains: HOST, upstreams: [{ host: '127.0.0.1', port: stack.origin.port }] },
    });
    if (made.status !== 200) throw new Error(`domain: ${made.status} ${JSON.stringify(made.body)}`);
    await until('the edge to serve the drill host', async () => ((await get({ port: stack.httpPort, host: HOST, path: '/ready' })).status === 200 ? true : undefined), 120_000);

    type Fault = (stream: ReturnType<typeof traffic>) => Promise<{ outageMs: number; unwritable?: number; note?: string }>;
    const run = async (name: string, drill: string, fault: Fault) => {
      const stream = traffic(stack, drill);
      await sleep(3000);
      const { outageMs, unwritable = 0, note } = await fault(stream);
      await sleep(3000);
      const { sent, statuses } = await stream.stop();
      const served = Object.entries(statuses).reduce((n, [s, c]) => (s === '0' ? n : n + c), 0);
      const { lines, catchUpMs } = await settle(stack, drill, served);
      drills.push(report({ name, outageMs, sent, statuses, lines, lost: Math.max(0, served - lines), doubled: Math.max(0, lines - served), catchUpMs, unwritable, note }));
    };

    await run('API killed (SIGKILL) while lines ship, down past the agent timeouts, started again', 'api-kill', async () => {
      const down = performance.now();
      await stack.server.kill();
      await sleep(apiDownMs);
      await stack.server.restart();
      return { outageMs: performance.now() - down };
    });
    await run('agent killed (SIGKILL) while lines ship, started again', 'agent-kill', async () => {
      const down = performance.now();
      await stack.killAgent();
      await sleep(agentDownMs);
      stack.restartAgent();
      return { outageMs: performance.now() - down };
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
      return { outageMs: outage };
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
      return { outageMs: performance.now() - down };
    });
    if (tmpfs.ok) {
      const filler = join(tmpfs.dir, 'filler');
      await run(`the node's disk full (its directory on a 64 MiB tmpfs, filled) for ${diskFullMs / 1000} s, then freed`, 'disk-full', async (stream) => {
        const full = performance.now();
        const first = stream.sent();
        await fillDisk({ file: filler });
        const shownMs = await until('the console to show the disk full', async () => ((await nodeDiskFull(stack)) ? performance.now() - full : undefined), 60_000);
        await sleep(Math.max(0, diskFullMs - (performance.now() - full)));
        await rm(filler);
        const freed = performance.now();
        // nginx skips a log for the rest of the second in which a write to it failed for lack of space
        await sleep(1000);
        const unwritable = stream.sent() - first;
        const clearedMs = await until('the console to show the disk with room', async () => ((await nodeDiskFull(stack)) ? undefined : performance.now() - freed), 60_000);
        return { outageMs: freed - full, unwritable, note: `shown on the node ${(shownMs / 1000).toFixed(1)} s after filling, cleared ${(clearedMs / 1000).toFixed(1)} s after freeing` };
      });
    }
  } finally {
    await stack.stop();
    if (tmpfs.ok) await unmountTmpfs({ dir: tmpfs.dir });
  }
  // a full disk loses the lines nginx could not write, at most those of the requests answered while full
  const held = drills.every((d) => d.lost <= d.unwritable && d.doubled === 0 && Object.keys(d.statuses).every((s) => s === '200'));
  console.log(`faults: the edge served every request and the API counted each once (but what nginx could not write): ${held ? 'held' : 'NOT held'}`);
  return { drills, held };
};
