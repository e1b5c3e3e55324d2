import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, makeTenants, lane, startTestApp, type TestApp } from '../../test/harness';
import { OFFLINE_AFTER_SECONDS } from '../modules/nodes/service';

const GOLDEN = path.join(import.meta.dirname, '__golden__', 'new-zone-state.json');

lane('agent gateway', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  let zone: number;
  let node: number;
  let credential: string;

  const agent = async (method: string, url: string, body?: unknown, cred = credential) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/agent/v1/${url}`,
      headers: { authorization: `Node ${cred}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const report = { version: '0.1.0', appliedRevision: 1, applyError: null, nginxRunning: true, cpuPercent: 12.5, memory: { totalBytes: 8e9, usedBytes: 2e9 }, disk: { totalBytes: 1e11, usedBytes: 5e10 }, network: { rxBytes: 10, txBytes: 20 }, loadAverage: [0.1, 0.2, 0.3], uptimeSeconds: 3600 };

  beforeAll(async () => {
    t = await startTestApp({ AGENT_WATCH_SECONDS: '1' });
    f = await makeTenants(t);
    zone = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'edge' } })).body.data.id;
    node = (await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: zone, name: 'edge-1', ip: '192.0.2.1' } })).body.data.id;
  });
  afterAll(() => t.close());

  it('enrols a node once with its one-time token and shows the install command', async () => {
    const init = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id: node } });
    expect(init.body.data.command).toContain(`EDGEKEEP_ENROLL_TOKEN=${init.body.data.token}`);
    const enrol = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'edge-1', version: '0.1.0' } });
    expect(enrol.statusCode).toBe(200);
    credential = enrol.json().credential;
    expect(enrol.json()).toMatchObject({ nodeId: node, nodeUID: expect.stringMatching(/^n-/) });
    const again = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'x', version: '0.1.0' } });
    expect([again.statusCode, again.json().code]).toEqual([401, 101013]);
    const listed = (await call(t, 'GET', `client/nodes?zoneID=${zone}`, { token: f.tokens.clientA })).body.data[0];
    expect(listed).toMatchObject({ initialized: true, status: 'unknown' });
  });

  it("answers the zone's desired state, as the golden file says", async () => {
    const state = await agent('GET', 'state');
    const shaped = { ...state.body, revision: '<revision>', etag: '<etag>' };
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(GOLDEN, `${JSON.stringify(shaped, null, 2)}\n`);
    expect(shaped).toEqual(JSON.parse(fs.readFileSync(GOLDEN, 'utf8')));
  });

  it('watch answers at once when the revision moved, waits otherwise, and wakes on a change', async () => {
    const now = (await agent('GET', 'watch?since=0')).body.revision;
    expect(now).toBeGreaterThan(0);
    const started = Date.now();
    expect((await agent('GET', `watch?since=${now}`)).body.revision).toBe(now);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const waiting = agent('GET', `watch?since=${now}`);
    await new Promise((r) => setTimeout(r, 100));
    await call(t, 'PUT', `client/zone/${zone}/ports`, { token: f.tokens.clientA, body: { httpPorts: [80, 8080], httpsPorts: [443] } });
    const woke = await waiting;
    expect(woke.body.revision).toBeGreaterThan(now);
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await agent('GET', 'state')).body.structure.zone.httpPorts).toEqual([80, 8080]);
  });

  it('takes reports: status, version, metrics; silence makes the node offline', async () => {
    expect((await agent('POST', 'report', { ...report, cpuPercent: 150 })).body.code).toBe(101003);
    expect((await agent('POST', 'report', report)).status).toBe(200);
    const listed = (await call(t, 'GET', `client/nodes?zoneID=${zone}`, { token: f.tokens.clientA })).body.data[0];
    expect(listed).toMatchObject({ status: 'normal', version: '0.1.0', appliedRevision: 1 });
    const system = await call(t, 'GET', `client/node/${node}/system`, { token: f.tokens.clientA });
    expect(system.body.data).toMatchObject({ cpuPercent: 12.5, memory: { usedBytes: 2e9 }, loadAverage: [0.1, 0.2, 0.3] });

    await agent('POST', 'report', { ...report, applyError: 'nginx: [emerg] unknown directive' });
    expect((await call(t, 'GET', `client/nodes?status=error`, { token: f.tokens.clientA })).body.total).toBe(1);
    const old = new Date(Date.now() - (OFFLINE_AFTER_SECONDS + 5) * 1000).toISOString();
    await t.deps.db.updateTable('nodes').set({ last_report_at: old }).where('id', '=', node).execute();
    expect((await call(t, 'GET', `client/nodes?status=offline`, { token: f.tokens.clientA })).body.total).toBe(1);
  });

  it("writes the reports of nodes that report together, each node's own, and refuses a bad one alone", async () => {
    // two reports of one node together: the later one is what the node's row holds. Both find the node kept by its
    // credential (the call before keeps it, and no credential of the zone changes meanwhile), so they reach the batch
    // in the order they were sent.
    await agent('GET', 'commands');
    await Promise.all([agent('POST', 'report', { ...report, version: '0.2.1' }), agent('POST', 'report', { ...report, version: '0.2.2' })]);
    const first = (await call(t, 'GET', `client/nodes?zoneID=${zone}`, { token: f.tokens.clientA })).body.data as { id: number; version: string }[];
    expect(first.find((n) => n.id === node)?.version).toBe('0.2.2');
    const second = (await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: zone, name: 'edge-2', ip: '192.0.2.2' } })).body.data.id;
    const init = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id: second } });
    const enrol = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'edge-2', version: '0.1.0' } });
    const cred2 = enrol.json().credential as string;
    const answers = await Promise.all([
      agent('POST', 'report', { ...report, version: '0.2.0', cpuPercent: 21 }),
      agent('POST', 'report', { ...report, version: '0.3.0', cpuPercent: 33 }, cred2),
      agent('POST', 'report', { ...report, cpuPercent: -1 }, cred2),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    await agent('POST', 'report', { ...report, version: '0.2.0', cpuPercent: 21 });
    const listed = (await call(t, 'GET', `client/nodes?zoneID=${zone}`, { token: f.tokens.clientA })).body.data as { id: number; version: string }[];
    expect(Object.fromEntries(listed.map((n) => [n.id, n.version]))).toEqual({ [node]: '0.2.0', [second]: '0.3.0' });
    expect((await call(t, 'GET', `client/node/${second}/system`, { token: f.tokens.clientA })).body.data).toMatchObject({ cpuPercent: 33 });
    expect((await call(t, 'DELETE', 'client/nodes', { token: f.tokens.clientA, body: { ids: [second] } })).status).toBe(200);
  });

  it('hands queued actions to the node and records their results', async () => {
    const since = (await agent('GET', 'watch?since=0')).body.revision;
    expect((await agent('GET', 'watch?since=0')).body.commands).toBe(false);
    // a watch waiting answers once an action is queued, and says one waits
    const waiting = agent('GET', `watch?since=${since}`);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const queued = await call(t, 'POST', `client/node/${node}/command`, { token: f.tokens.clientA, body: { kind: 'reload' } });
    expect((await waiting).body).toEqual({ revision: since, commands: true });
    expect(Date.now() - started).toBeLessThan(900);
    const got = await agent('GET', 'commands');
    expect(got.body.commands).toEqual([{ id: queued.body.data.id, kind: 'reload', args: {} }]);
    expect((await call(t, 'GET', `client/node/${node}/commands`, { token: f.tokens.clientA })).body.data[0].status).toBe('sent');
    expect((await agent('POST', `commands/${queued.body.data.id}/result`, { ok: true, message: 'reloaded' })).status).toBe(200);
    expect((await agent('GET', 'commands')).body.commands).toEqual([]);
    expect((await agent('GET', 'watch?since=0')).body.commands).toBe(false);
    const done = (await call(t, 'GET', `client/node/${node}/commands`, { token: f.tokens.clientA })).body.data[0];
    expect(done).toMatchObject({ status: 'done', message: 'reloaded', finishedAt: expect.any(String) });
  });

  it("gives a node only its own zone's state and commands", async () => {
    const zoneB = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientB, body: { name: 'b' } })).body.data.id;
    await call(t, 'PUT', `client/zone/${zoneB}/ports`, { token: f.tokens.clientB, body: { httpPorts: [9999], httpsPorts: [9443] } });
    const other = (await call(t, 'POST', 'client/node', { token: f.tokens.clientB, body: { zoneID: zoneB, name: 'b-1', ip: '192.0.2.50' } })).body.data.id;
    const cmd = await call(t, 'POST', `client/node/${other}/command`, { token: f.tokens.clientB, body: { kind: 'reload' } });
    expect((await agent('GET', 'state')).body.structure.zone.httpPorts).toEqual([80, 8080]);
    expect((await agent('GET', 'commands')).body.commands).toEqual([]);
    expect((await agent('POST', `commands/${cmd.body.data.id}/result`, { ok: true, message: 'x' })).status).toBe(404);
  });

  it('serves the install script and the agent package that the enrolment command and upgrades use', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/agent/install.sh' });
    expect(script.body).toContain('EDGEKEEP_ENROLL_TOKEN');
    const pkg = await t.app.inject({ method: 'GET', url: '/agent/package.tgz' });
    expect(pkg.statusCode).toBe(200);
    expect(pkg.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(pkg.headers['content-disposition']).toMatch(/edgekeep-agent-[\d.]+\.tgz/);
    const upgrade = await call(t, 'POST', `client/node/${node}/command`, { token: f.tokens.clientA, body: { kind: 'upgrade' } });
    const sent = (await agent('GET', 'commands')).body.commands.find((c: { id: number }) => c.id === upgrade.body.data.id);
    expect(sent.args).toEqual({ version: expect.any(String), url: expect.stringMatching(/\/agent\/package\.tgz$/) });
  });

  it("refuses a node's credential at once when it enrols again or is deleted, and follows a move at once, though each credential was just used", async () => {
    const id = (await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: zone, name: 'edge-2', ip: '192.0.2.2' } })).body.data.id;
    const enrol = async () => {
      const init = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id } });
      const res = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: 'edge-2', version: '0.1.0' } });
      return res.json().credential as string;
    };
    const first = await enrol();
    expect((await agent('GET', 'commands', undefined, first)).status).toBe(200);
    const second = await enrol();
    expect((await agent('GET', 'commands', undefined, first)).status).toBe(401);
    const since = (await agent('GET', 'watch?since=0', undefined, second)).body.revision;
    // moved: its watch follows the new zone, not the old one
    const other = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'edge-moved' } })).body.data.id;
    expect((await call(t, 'PUT', 'client/node/zone', { token: f.tokens.clientA, body: { ids: [id], zoneID: other } })).status).toBe(200);
    expect((await call(t, 'PUT', `client/zone/${other}/ports`, { token: f.tokens.clientA, body: { httpPorts: [80], httpsPorts: [443, 8443] } })).status).toBe(200);
    const revisionOf = async (zoneId: number) => (await t.deps.db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', zoneId).executeTakeFirstOrThrow()).revision;
    expect(await revisionOf(other)).toBeGreaterThan(await revisionOf(zone));
    expect((await agent('GET', `watch?since=${since}`, undefined, second)).body.revision).toBe(await revisionOf(other));
    expect((await call(t, 'DELETE', 'client/nodes', { token: f.tokens.clientA, body: { ids: [id] } })).status).toBe(200);
    expect((await agent('GET', 'commands', undefined, second)).status).toBe(401);
  });

  it('refuses unknown credentials, and de-initialising revokes them at once', async () => {
    expect((await agent('GET', 'state', undefined, 'forged')).status).toBe(401);
    await call(t, 'DELETE', 'client/nodes/initialized', { token: f.tokens.clientA, body: { ids: [node] } });
    const r = await agent('GET', 'state');
    expect([r.status, r.body.code]).toEqual([401, 101013]);
    expect((await call(t, 'GET', `client/nodes?zoneID=${zone}`, { token: f.tokens.clientA })).body.data[0].initialized).toBe(false);
  });
});
