import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolNode, logLine, postLogs } from '../../test/agent-logs';
import { makeInfra } from '../../test/fixtures';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { serveMetrics } from '@edgekeep/agent/metrics';

/** The value of one sample of the exposition text, or undefined when it is not there. */
const sample = (text: string, name: string, labels: Record<string, string | number> = {}) => {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)) : false);
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

lane('metrics', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let credential: string;
  const scrape = () => t.deps.metrics.registry.metrics();

  beforeAll(async () => {
    t = await startTestApp({ AGENT_WATCH_SECONDS: '1' });
    f = await makeInfra(t);
    credential = await enrolNode(t, f.tokens.clientA, f.a.node);
  });
  afterAll(() => t.close());

  it('counts requests and their latency per route pattern and status', async () => {
    const before = sample(await scrape(), 'edgekeep_http_requests_total', { route: '/api/v1/client/zones', status: 200 }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await call(t, 'GET', 'client/zones', { token: f.tokens.clientA })).status).toBe(200);
    expect((await call(t, 'GET', 'client/zones')).status).toBe(401);
    const text = await scrape();
    expect(sample(text, 'edgekeep_http_requests_total', { method: 'GET', route: '/api/v1/client/zones', status: 200 })).toBe(before + 3);
    expect(sample(text, 'edgekeep_http_requests_total', { route: '/api/v1/client/zones', status: 401 })).toBe(1);
    expect(sample(text, 'edgekeep_http_request_duration_seconds_count', { route: '/api/v1/client/zones' })).toBe(before + 4);
  });

  it("shows each node's last report, the agents watching and the lines ingested", async () => {
    const state = await t.app.inject({ method: 'GET', url: '/agent/v1/state', headers: { authorization: `Node ${credential}` } });
    const revision = state.json().revision as number;
    const report = { version: '0.1.0', appliedRevision: revision, applyError: null, nginxRunning: true, cpuPercent: 1, memory: { totalBytes: 1, usedBytes: 1 }, disk: { totalBytes: 1, usedBytes: 1 }, network: { rxBytes: 0, txBytes: 0 }, loadAverage: [0], uptimeSeconds: 1 };
    expect((await t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${credential}` }, payload: report })).statusCode).toBe(200);
    let text = await scrape();
    const uid = (await t.deps.db.selectFrom('nodes').select('node_uid').where('id', '=', f.a.node).executeTakeFirstOrThrow()).node_uid;
    for (const name of ['edgekeep_node_reporting', 'edgekeep_node_nginx_running', 'edgekeep_node_apply_ok', 'edgekeep_node_up_to_date']) {
      expect(sample(text, name, { node: uid, zone: 'zone-a' }), name).toBe(1);
    }
    // the node reached its zone's newest revision: once, however often it reports it
    expect(sample(text, 'edgekeep_propagation_seconds_count')).toBe(1);
    await t.app.inject({ method: 'POST', url: '/agent/v1/report', headers: { authorization: `Node ${credential}` }, payload: report });
    expect(sample(await scrape(), 'edgekeep_propagation_seconds_count')).toBe(1);
    // a node of the other client that never enrolled is not listed
    expect(text).not.toContain('zone="zone-b"');

    const watch = t.app.inject({ method: 'GET', url: `/agent/v1/watch?since=${revision}`, headers: { authorization: `Node ${credential}` } });
    await expect.poll(async () => sample(await scrape(), 'edgekeep_agent_watchers')).toBe(1);
    await watch;
    expect(sample(await scrape(), 'edgekeep_agent_watchers')).toBe(0);

    const lines = [logLine({ siteId: f.a.site }), logLine({ siteId: f.a.site }), logLine({ siteId: f.b.site })];
    expect((await postLogs(t, credential, lines)).body.accepted).toBe(3);
    // lines are counted as stored when their batch is loaded: a query waits for that
    await t.deps.analytics.countLines({ siteIds: [f.a.site], from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) });
    text = await scrape();
    expect(sample(text, 'edgekeep_ingest_batches_total', { log: 'access' })).toBe(1);
    expect(sample(text, 'edgekeep_ingest_lines_total', { log: 'access', outcome: 'stored' })).toBe(2);
    expect(sample(text, 'edgekeep_ingest_lines_total', { log: 'access', outcome: 'skipped' })).toBe(1);
    expect(sample(text, 'edgekeep_ingest_lag_seconds_count', { log: 'access' })).toBe(1);
  });

  it('counts scheduled job runs by outcome', async () => {
    t.deps.scheduler.every({ name: 'metrics-probe', everyMs: 3_600_000, run: async () => undefined });
    t.deps.scheduler.every({ name: 'metrics-failing', everyMs: 3_600_000, run: async () => Promise.reject(new Error('down')) });
    expect(await t.deps.scheduler.runNow('metrics-probe')).toBe(true);
    expect(await t.deps.scheduler.runNow('metrics-failing')).toBe(true);
    const text = await scrape();
    expect(sample(text, 'edgekeep_job_runs_total', { job: 'metrics-probe', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'edgekeep_job_runs_total', { job: 'metrics-failing', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'edgekeep_job_duration_seconds_count', { job: 'metrics-probe' })).toBe(1);
  });

  it('serves /metrics on its own loopback address and nothing else there; the public API has no /metrics', async () => {
    const server = (await serveMetrics(t.deps.metrics.registry, { host: '127.0.0.1', port: 0, log: () => undefined }))!;
    // a second one on the same port cannot bind: no metrics there, and no crash
    expect(await serveMetrics(t.deps.metrics.registry, { host: '127.0.0.1', port: (server.address() as { port: number }).port, log: () => undefined })).toBeUndefined();
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('process_resident_memory_bytes');
      expect(text).toContain('# TYPE edgekeep_http_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      server.close();
    }
    const pub = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(pub.body).not.toContain('edgekeep_http_requests_total');
  });
});
