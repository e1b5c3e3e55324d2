import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { api } from '../e2e/harness';
import { licensedClient } from '../e2e/tenants';
import { metric, startCluster, type Cluster } from './cluster';
import { percentile, sleep } from './stats';

const PASSWORD = 'console-load bench password';
/** Tenants: this many clients, each with its share of the users. */
const CLIENTS = 5;
/** Each user's two sites: the first with enough domains for a second page of `DOMAIN_PAGE`, the second with a few. */
const DOMAINS_PER_SITE = [14, 3];
const DOMAIN_PAGE = 10;
/** Sign-ins at once before the clock starts (each checks a password hash and mails a code). */
const SIGN_IN_AT_ONCE = 8;
/** A token expiring within this much is refreshed before the next call. */
const REFRESH_MARGIN_S = 60;
/** RSS grown by more than this between minute 1 and the end is not flat. */
const FLAT_GROWTH = 0.1;

/** Kept answers sent again and read afresh per route, summed over the instances (`edgekeep_kept_answers_total`). */
async function keptByRoute(ports: number[]) {
  const routes = new Map<string, { sent: number; read: number }>();
  for (const port of ports) {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
    for (const [, route, outcome, value] of text.matchAll(/^edgekeep_kept_answers_total\{route="([^"]+)",outcome="(sent|read)"\} (\S+)$/gm)) {
      const r = routes.get(route) ?? routes.set(route, { sent: 0, read: 0 }).get(route)!;
      r[outcome as 'sent' | 'read'] += Number(value);
    }
  }
  return routes;
}

type Kind = string;
type Tally = { count: number; errors: number; ms: number[]; errorSamples: string[] };

/** Per call kind: count, errors (non-2xx or network), latencies. */
function recorder() {
  const kinds = new Map<Kind, Tally>();
  let recording = false;
  return {
    kinds,
    start: () => (recording = true),
    stop: () => (recording = false),
    add(kind: Kind, ms: number, error?: string) {
      if (!recording) return;
      const t = kinds.get(kind) ?? { count: 0, errors: 0, ms: [], errorSamples: [] };
      kinds.set(kind, t);
      t.count++;
      t.ms.push(ms);
      if (error !== undefined) {
        t.errors++;
        if (t.errorSamples.length < 5) t.errorSamples.push(error);
      }
    },
  };
}
type Recorder = ReturnType<typeof recorder>;

/** Seconds since the epoch at which a JWT expires (its payload's `exp`). */
const expiryOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as { exp: number }).exp;

type Session = { email: string; access: string; refresh: string; expires: number; sites: number[] };

/**
 * One console user's calls against `url`: each call timed and tallied under its kind; the token refreshed through
 * the product's refresh call (`PATCH user`) when it expires within a minute.
 */
function userClient({ url, session, rec, signal }: { url: string; session: Session; rec: Recorder; signal: AbortSignal }) {
  const call = async (kind: Kind, method: string, path: string, body?: unknown) => {
    const t0 = performance.now();
    try {
      // No abort signal per call: Node 20's fetch leaves a listener on it per request (thousands a minute here).
      const res = await fetch(`${url}/api/v1/${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${session.access}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      if (res.status < 200 || res.status > 299) {
        rec.add(kind, ms, `${res.status} ${text.slice(0, 200)}`);
        return undefined;
      }
      rec.add(kind, ms);
      return JSON.parse(text) as { data?: any; total?: number };
    } catch (err) {
      if (signal.aborted) return undefined;
      rec.add(kind, performance.now() - t0, `network: ${(err as Error).message} ${String((err as Error).cause ?? '')}`);
      return undefined;
    }
  };
  const refreshIfDue = async () => {
    if (session.expires - Date.now() / 1000 > REFRESH_MARGIN_S) return;
    const t0 = performance.now();
    const res = await fetch(`${url}/api/v1/user`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: session.refresh }) }).catch(
      (err: Error) => err,
    );
    if (res instanceof Error) return rec.add('refresh', performance.now() - t0, `network: ${res.message}`);
    const body = (await res.json()) as { data?: { accessToken: string; refreshToken: string } };
    if (!res.ok || !body.data) return rec.add('refresh', performance.now() - t0, `${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    rec.add('refresh', performance.now() - t0);
    session.access = body.data.accessToken;
    session.refresh = body.data.refreshToken;
    session.expires = expiryOf(session.access);
  };
  return { call, refreshIfDue };
}

/**
 * A user's loop until `until`: browse lists (its sites, the first and second page of a site's domains), open the
 * site settings screen (the site picker's list, the site, its first tab's domains at once; then the settings,
 * certificates and ports tabs), change a rule (the blacklist: list it, add an address, close it, remove it), with a
 * think time of 1–3 s between screens.
 */
async function simulate({ url, session, rec, until, signal, index }: { url: string; session: Session; rec: Recorder; until: number; signal: AbortSignal; index: number }) {
  const { call, refreshIfDue } = userClient({ url, session, rec, signal });
  const think = () => sleep(1000 + Math.random() * 2000);
  const alive = () => Date.now() < until && !signal.aborted;
  let round = 0;
  // Users start spread over the first think time, as people do.
  await sleep(Math.random() * 3000);
  while (alive()) {
    const site = session.sites[round % session.sites.length];
    round++;
    await refreshIfDue();
    // Lists.
    await call('sites list', 'GET', 'user/sites?page=1&pageSize=20');
    await think();
    if (!alive()) break;
    await call('domains page 1', 'GET', `user/site/${session.sites[0]}/domains?page=1&pageSize=${DOMAIN_PAGE}`);
    await think();
    if (!alive()) break;
    await call('domains page 2', 'GET', `user/site/${session.sites[0]}/domains?page=2&pageSize=${DOMAIN_PAGE}`);
    await think();
    if (!alive()) break;
    // The site settings screen: what it asks for when it opens, then three of its tabs.
    await refreshIfDue();
    await Promise.all([
      call('settings: site picker', 'GET', 'user/metaSites'),
      call('settings: site', 'GET', `user/site/${site}`),
      call('settings: domains tab', 'GET', `user/site/${site}/domains?page=1&pageSize=${DOMAIN_PAGE}`),
    ]);
    await think();
    if (!alive()) break;
    await call('settings: options tab', 'GET', `user/site/${site}/settings`);
    await think();
    if (!alive()) break;
    await call('settings: certificates tab', 'GET', `user/site/${site}/certificates?page=1&pageSize=${DOMAIN_PAGE}`);
    await think();
    if (!alive()) break;
    await call('settings: ports tab', 'GET', `user/site/${site}/zonePorts`);
    await think();
    if (!alive()) break;
    // A rule changed: the blacklist screen, an address added, then closed and removed.
    await refreshIfDue();
    const base = `user/site/${site}/firewall/setting/blacklists`;
    await call('blacklist list', 'GET', `${base}?page=1&pageSize=20`);
    await think();
    if (!alive()) break;
    const ip = `198.51.${(index >> 8) & 255}.${index & 255}`;
    const added = await call('blacklist add', 'POST', base, { ips: ip, memo: 'console-load' });
    const ids = ((added?.data ?? []) as { id: number }[]).map((e) => e.id);
    await think();
    if (ids.length) {
      await call('blacklist close', 'PUT', `${base}/enable`, { ids, enabled: false });
      await call('blacklist remove', 'DELETE', base, { ids });
    }
    await think();
  }
}

/** The tenants and their data, made through the API: `CLIENTS` licensed clients, each with a zone, node, line group and product; users, two sites each, domains. */
async function makeData({ cluster, users }: { cluster: Cluster; users: number }) {
  const target = { url: cluster.url };
  const accounts: { email: string; sites: number[] }[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const { client } = await licensedClient({ server: cluster.servers[0], smtp: cluster.smtp, password: PASSWORD, email: `tenant${c}@example.com` });
    const as = { token: client };
    const must = async (method: string, path: string, body?: unknown) => {
      const res = await api(target, method, path, { ...as, body });
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    };
    const zone = (await must('POST', 'client/zone', { name: `zone-${c}` })).id as number;
    const node = (await must('POST', 'client/node', { zoneID: zone, name: `edge-${c}`, ip: `10.0.${c}.1` })).id as number;
    const group = (await must('POST', `client/zone/${zone}/group`, { name: 'line', nodeIDs: [node] })).id as number;
    const product = (await must('POST', 'client/product', { name: 'Starter plan', zoneID: zone, groupID: group })).id as number;
    const mine = Array.from({ length: users }, (_, i) => i).filter((i) => i % CLIENTS === c);
    for (let i = 0; i < mine.length; i += 20) {
      accounts.push(
        ...(await Promise.all(
          mine.slice(i, i + 20).map(async (u) => {
            const email = `user${u}@example.com`;
            const account = await must('POST', 'client/account', { email, name: `user-${u}`, auth: 'user', password: PASSWORD });
            const sites: number[] = [];
            for (const s of DOMAINS_PER_SITE.keys()) sites.push((await must('POST', 'client/site', { name: `site-${u}-${s}`, productID: product, userID: account.id })).id as number);
            return { email, sites };
          }),
        )),
      );
    }
  }
  return accounts;
}

/** Signs the user in through the real calls (password, then the code mailed to it), as the console's form does. */
async function signIn({ cluster, email }: { cluster: Cluster; email: string }) {
  const before = cluster.smtp.mails.length;
  const step1 = await api({ url: cluster.url }, 'POST', 'user/login', { body: { account: email, password: PASSWORD } });
  if (step1.status !== 200) throw new Error(`sign-in of ${email}: ${step1.status} ${JSON.stringify(step1.body)}`);
  const code = step1.body.data.login2FAType === 2 ? step1.body.data.code : await cluster.smtp.waitFor(email, /code is (\d{6})/, before, 60_000);
  const step2 = await api({ url: cluster.url }, 'POST', 'user/code', { body: { account: email, onePassKey: step1.body.data.onePassKey, code } });
  if (step2.status !== 200) throw new Error(`code of ${email}: ${step2.status} ${JSON.stringify(step2.body)}`);
  return { access: step2.body.data.accessToken as string, refresh: step2.body.data.refreshToken as string };
}

type ModeResult = {
  instances: number;
  users: number;
  seconds: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  setupSeconds: number;
  signInSeconds: number;
  calls: Record<Kind, { count: number; errors: number; p50: number; p99: number; max: number; errorSamples: string[] }>;
  totals: { count: number; errors: number; perSecond: number };
  /** RSS of each instance (MB): at minute 1 (or a sixth of a shorter run), then each minute, and at the end. */
  rssMb: { atMinute1: number[]; atEnd: number[]; samples: { second: number; mb: number[]; loopLagMaxMs: number[]; loopLagP99Ms: number[] }[] };
  flat: boolean;
  /** This process's event-loop delay over the run (ms). */
  benchLoop: { p99Ms: number; maxMs: number };
  /** Per instance, from its own request histogram: calls, and those that took over 250 ms and over 1 s; and of the calls of routes whose answers are kept, those answered with the kept answer. */
  served: { calls: number; over1s: number; over250ms: number; keptSent: number; keptRead: number; cpuSeconds: number }[];
};

async function runMode({ instances, users, seconds, env }: { instances: number; users: number; seconds: number; env: Record<string, string> }): Promise<ModeResult> {
  const label = `console-load, ${instances} instance${instances > 1 ? 's' : ''}`;
  const setupStarted = performance.now();
  const cluster = await startCluster({ instances, adminPassword: PASSWORD, env });
  const stopUsers = new AbortController();
  const sampler: { timer?: NodeJS.Timeout } = {};
  // Interrupted (Ctrl-C, a timeout's SIGTERM): the instances, the balancer and the database go too.
  const interrupted = () => {
    stopUsers.abort();
    clearTimeout(sampler.timer);
    void cluster.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const accounts = await makeData({ cluster, users });
    const domainTarget = { url: cluster.url };
    const signInStarted = performance.now();
    const sessions: Session[] = [];
    for (let i = 0; i < accounts.length; i += SIGN_IN_AT_ONCE) {
      sessions.push(
        ...(await Promise.all(
          accounts.slice(i, i + SIGN_IN_AT_ONCE).map(async (a) => {
            const t = await signIn({ cluster, email: a.email });
            return { email: a.email, access: t.access, refresh: t.refresh, expires: expiryOf(t.access), sites: a.sites };
          }),
        )),
      );
    }
    const signInSeconds = (performance.now() - signInStarted) / 1000;
    // Domains are added by each user to its own sites (the first gets a second page's worth).
    for (let i = 0; i < sessions.length; i += 20) {
      await Promise.all(
        sessions.slice(i, i + 20).flatMap((s, k) =>
          s.sites.map(async (site, n) => {
            const names = Array.from({ length: DOMAINS_PER_SITE[n] }, (_, d) => `d${d}.s${n}.bench-u${i + k}.com`).join('\n');
            const res = await api(domainTarget, 'POST', `user/site/${site}/domains`, { token: s.access, body: { domains: names, upstreams: [{ host: '127.0.0.1', port: 8080 }] } });
            if (res.status !== 200) throw new Error(`domains of site ${site}: ${res.status} ${JSON.stringify(res.body)}`);
          }),
        ),
      );
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    console.log(`${label}: ${users} users under ${CLIENTS} clients, ${users * DOMAINS_PER_SITE.length} sites, ${users * DOMAINS_PER_SITE.reduce((a, b) => a + b, 0)} domains; signed in ${users} users in ${signInSeconds.toFixed(0)} s (${SIGN_IN_AT_ONCE} at once); set-up ${setupSeconds.toFixed(0)} s`);

    const rss = async () => Promise.all(cluster.metricsPorts.map(async (p) => Math.round((await metric(p, 'process_resident_memory_bytes')) / 2 ** 20)));
    const rec = recorder();
    const loadAverageAtStart = loadavg();
    const minute1 = Math.min(60, seconds / 6);
    const samples: { second: number; mb: number[]; loopLagMaxMs: number[]; loopLagP99Ms: number[] }[] = [];
    /** Each instance's event-loop delay since its previous scrape (prom-client resets it on each), both from one scrape. */
    const loopLag = async () =>
      Promise.all(
        cluster.metricsPorts.map(async (p) => {
          const text = await fetch(`http://127.0.0.1:${p}/metrics`).then((r) => r.text());
          const value = (name: string) => Math.round(Number(/^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN) * 1000);
          return { max: value('nodejs_eventloop_lag_max_seconds'), p99: value('nodejs_eventloop_lag_p99_seconds') };
        }),
      );
    // This process's own event-loop delay: a stall here would stretch every latency it measures.
    const ownLoop = monitorEventLoopDelay({ resolution: 10 });
    const started = Date.now();
    const until = started + seconds * 1000;
    let atMinute1: number[] = [];
    const sample = async () => {
      const second = Math.round((Date.now() - started) / 1000);
      const lag = await loopLag();
      samples.push({ second, mb: await rss(), loopLagMaxMs: lag.map((l) => l.max), loopLagP99Ms: lag.map((l) => l.p99) });
      const last = samples.at(-1)!;
      console.log(`${label}: ${second} s, RSS ${last.mb.join(' / ')} MB, event-loop delay p99 ${last.loopLagP99Ms.join(' / ')} ms, max ${last.loopLagMaxMs.join(' / ')} ms, load average ${loadavg()[0].toFixed(1)}, ${[...rec.kinds.values()].reduce((a, t) => a + t.count, 0)} calls, ${[...rec.kinds.values()].reduce((a, t) => a + t.errors, 0)} errors`);
    };
    const next = (at: number) => {
      sampler.timer = setTimeout(
        () =>
          void sample().then(() => {
            if (at === minute1) atMinute1 = samples.at(-1)!.mb;
            const following = at === minute1 ? 120 : at + 60;
            if (following < seconds) next(following);
          }),
        Math.max(0, started + at * 1000 - Date.now()),
      );
    };
    next(minute1);
    // The instances' own view of their calls' time (handler to answer, from their histogram), counted over the run alone.
    const servedSoFar = () =>
      Promise.all(
        cluster.metricsPorts.map(async (p) => {
          const all = await metric(p, 'edgekeep_http_request_duration_seconds_count');
          const within1s = await metric(p, 'edgekeep_http_request_duration_seconds_bucket', 'le="1"');
          const within250 = await metric(p, 'edgekeep_http_request_duration_seconds_bucket', 'le="0.25"');
          const keptSent = await metric(p, 'edgekeep_kept_answers_total', 'outcome="sent"');
          const keptRead = await metric(p, 'edgekeep_kept_answers_total', 'outcome="read"');
          const cpuSeconds = await metric(p, 'process_cpu_seconds_total');
          return { calls: all, over1s: all - within1s, over250ms: all - within250, keptSent, keptRead, cpuSeconds };
        }),
      );
    await loopLag();
    const servedBefore = await servedSoFar();
    const keptBefore = await keptByRoute(cluster.metricsPorts);
    ownLoop.enable();
    rec.start();
    await Promise.all(sessions.map((session, index) => simulate({ url: cluster.url, session, rec, until, signal: stopUsers.signal, index })));
    rec.stop();
    ownLoop.disable();
    const benchLoop = { p99Ms: ownLoop.percentile(99) / 1e6, maxMs: ownLoop.max / 1e6 };
    clearTimeout(sampler.timer);
    const elapsed = (Date.now() - started) / 1000;
    await sample();
    const atEnd = samples.at(-1)!.mb;
    const loadAverageAtEnd = loadavg();
    const served = (await servedSoFar()).map((v, i) => {
      const before = servedBefore[i];
      return { calls: v.calls - before.calls, over1s: v.over1s - before.over1s, over250ms: v.over250ms - before.over250ms, keptSent: v.keptSent - before.keptSent, keptRead: v.keptRead - before.keptRead, cpuSeconds: v.cpuSeconds - before.cpuSeconds };
    });

    const kept = [...(await keptByRoute(cluster.metricsPorts))].map(([route, r]) => {
      const before = keptBefore.get(route) ?? { sent: 0, read: 0 };
      return { route, sent: r.sent - before.sent, read: r.read - before.read };
    });

    const calls: ModeResult['calls'] = {};
    for (const [kind, t] of [...rec.kinds].sort(([a], [b]) => a.localeCompare(b))) {
      calls[kind] = { count: t.count, errors: t.errors, p50: percentile({ samples: t.ms, p: 50 }), p99: percentile({ samples: t.ms, p: 99 }), max: Math.max(...t.ms), errorSamples: t.errorSamples };
    }
    const count = Object.values(calls).reduce((a, c) => a + c.count, 0);
    const errors = Object.values(calls).reduce((a, c) => a + c.errors, 0);
    const flat = atMinute1.length > 0 && atEnd.every((mb, i) => mb <= atMinute1[i] * (1 + FLAT_GROWTH));

    console.log(`${label}: ${users} users for ${elapsed.toFixed(0)} s, ${count} calls (${(count / elapsed).toFixed(0)}/s), ${errors} errors; load average at the start ${loadAverageAtStart.map((l) => l.toFixed(1)).join(' ')}, at the end ${loadAverageAtEnd.map((l) => l.toFixed(1)).join(' ')}`);
    for (const [kind, c] of Object.entries(calls)) {
      console.log(`  ${kind.padEnd(28)} n=${String(c.count).padStart(7)}  errors ${c.errors}  p50 ${c.p50.toFixed(1)} ms  p99 ${c.p99.toFixed(1)} ms  max ${c.max.toFixed(0)} ms${c.errors ? `  e.g. ${c.errorSamples[0]}` : ''}`);
    }
    console.log(`${label}: this process's event-loop delay p99 ${benchLoop.p99Ms.toFixed(0)} ms, max ${benchLoop.maxMs.toFixed(0)} ms; the instances' own times over the run (their histogram): ${served.map((v) => `${v.over250ms} over 250 ms, ${v.over1s} over 1 s of ${v.calls}, ${v.keptSent} kept answers sent again of ${v.keptSent + v.keptRead}, CPU ${v.cpuSeconds.toFixed(1)} s (${((v.cpuSeconds * 1000) / v.calls).toFixed(2)} ms a call)`).join('; ')}`);
    console.log(`${label}: kept answers sent again per route: ${kept.filter((k) => k.sent + k.read > 0).map((k) => `${k.route} ${k.sent}/${k.sent + k.read}`).join(' · ')}`);
    console.log(`${label}: RSS per instance at ${minute1.toFixed(0)} s → end: ${atEnd.map((mb, i) => `${atMinute1[i] ?? '?'} → ${mb} MB`).join(', ')}`);
    console.log(`${label}: 0 errors: ${errors === 0 ? 'met' : `MISSED (${errors})`} · memory flat (≤ ${FLAT_GROWTH * 100} % growth from ${minute1.toFixed(0)} s to the end): ${flat ? 'met' : 'MISSED'}`);
    return {
      instances, users, seconds: elapsed, loadAverageAtStart, loadAverageAtEnd, setupSeconds, signInSeconds, calls,
      totals: { count, errors, perSecond: count / elapsed }, rssMb: { atMinute1, atEnd, samples }, flat, benchLoop, served,
    };
  } catch (err) {
    cluster.servers.forEach((s, i) => console.error(`instance ${i + 1}'s output, its end:\n${s.output().slice(-4000)}`));
    throw err;
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    stopUsers.abort();
    clearTimeout(sampler.timer);
    await cluster.stop();
  }
}

/**
 * Console load (issue: 500 concurrent console users for 10 minutes against one instance and against three):
 * `CONSOLE_LOAD_USERS` (500) simulated users sign in once through the real calls, then browse lists, open site
 * settings and change a rule with a think time, for `CONSOLE_LOAD_SECONDS` (600); first against one API instance,
 * then against three behind Debian's nginx (`CONSOLE_LOAD_INSTANCES`, default `1,3`), each on a fresh PostgreSQL
 * database. Per call kind: count, errors, p50/p99; each instance's RSS at minute 1 and at the end.
 */
export const consoleLoad = async () => {
  const users = Number(process.env.CONSOLE_LOAD_USERS ?? 500);
  const seconds = Number(process.env.CONSOLE_LOAD_SECONDS ?? 600);
  const modes = (process.env.CONSOLE_LOAD_INSTANCES ?? '1,3').split(',').map(Number);
  // A shorter token life, to try the refresh in a short run (the product's default is 900 s).
  const env: Record<string, string> = process.env.CONSOLE_LOAD_TOKEN_SECONDS ? { ACCESS_TOKEN_SECONDS: process.env.CONSOLE_LOAD_TOKEN_SECONDS } : {};
  const results: ModeResult[] = [];
  for (const instances of modes) results.push(await runMode({ instances, users, seconds, env }));
  return results;
};
