import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, makeTenants, startTestApp, type TestApp } from '../../../test/harness';
import { agentPackage, agentVersion } from '../../lib/agent-package';
import { UPGRADE_TIMEOUT_JOB, UPGRADE_TIMEOUT_MS } from './service';

lane('node upgrades', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeTenants>>;
  const nodes: number[] = [];
  const credentials: string[] = [];

  const agent = async (url: string, body: unknown, credential: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/agent/v1/${url}`, headers: { authorization: `Node ${credential}` }, payload: body as object });
    return { status: res.statusCode, body: res.json() };
  };
  const commandsOf = async (credential: string) =>
    (await t.app.inject({ method: 'GET', url: '/agent/v1/commands', headers: { authorization: `Node ${credential}` } })).json().commands;
  const list = (token = f.tokens.clientA) => call(t, 'GET', 'client/node/upgrades', { token });

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeTenants(t);
    const zone = (await call(t, 'POST', 'client/zone', { token: f.tokens.clientA, body: { name: 'edge' } })).body.data.id;
    for (const name of ['edge-1', 'edge-2']) {
      const id = (await call(t, 'POST', 'client/node', { token: f.tokens.clientA, body: { zoneID: zone, name, ip: '192.0.2.1' } })).body.data.id;
      const init = await call(t, 'POST', 'client/nodes/initialize', { token: f.tokens.clientA, body: { id } });
      const enrol = await t.app.inject({ method: 'POST', url: '/agent/v1/enroll', payload: { token: init.body.data.token, hostname: name, version: '0.0.9' } });
      nodes.push(id);
      credentials.push(enrol.json().credential);
    }
  });
  afterAll(() => t.close());

  it('answers the shipped agent version, and the nodes not updated', async () => {
    expect((await call(t, 'GET', 'client/node/latestVersion', { token: f.tokens.clientA })).body.data).toEqual({ version: agentVersion() });
    const r = await list();
    expect(r.body.total).toBe(2);
    expect(r.body.data[0]).toMatchObject({ version: '0.0.9', latestVersion: agentVersion(), upgradeState: 'notUpdated', progress: 0 });
  });

  it('queues an upgrade per node carrying the package checksum; the agent reports its steps', async () => {
    const r = await call(t, 'POST', 'client/node/upgrade', { token: f.tokens.clientA, body: { ids: nodes } });
    expect(r.status).toBe(200);
    expect(r.body.data.upgrades.map((u: { nodeID: number }) => u.nodeID)).toEqual(nodes);
    const sum = createHash('sha256').update(fs.readFileSync(await agentPackage(t.dataDir))).digest('hex');
    const [command] = await commandsOf(credentials[0]);
    const upgradeId = r.body.data.upgrades[0].upgradeID;
    expect(command).toMatchObject({ kind: 'upgrade', args: { version: agentVersion(), url: '/agent/package.tgz', sha256: sum, upgradeId } });
    const served = await t.app.inject({ method: 'GET', url: '/agent/package.tgz.sha256' });
    expect(served.body).toBe(sum);

    expect((await agent('upgrade/log', { upgradeId, message: 'package verified', progress: 30 }, credentials[0])).status).toBe(200);
    let row = (await list()).body.data.find((n: { id: number }) => n.id === nodes[0]);
    expect(row).toMatchObject({ upgradeState: 'updating', progress: 30 });
    // Another node's agent cannot write into this upgrade.
    expect((await agent('upgrade/log', { upgradeId, message: 'x', state: 'failed' }, credentials[1])).status).toBe(404);
    await agent('upgrade/log', { upgradeId, message: `version ${agentVersion()} started`, progress: 100, state: 'complete' }, credentials[0]);
    await t.deps.db.updateTable('nodes').set({ version: agentVersion() }).where('id', '=', nodes[0]).execute();
    row = (await list()).body.data.find((n: { id: number }) => n.id === nodes[0]);
    expect(row).toMatchObject({ upgradeState: 'complete', progress: 100, version: agentVersion() });
    const log = (await call(t, 'GET', `client/node/${nodes[0]}/upgrade/logs`, { token: f.tokens.clientA })).body.data;
    expect(log).toMatchObject({ state: 'complete', fromVersion: '0.0.9', toVersion: agentVersion(), progress: 100 });
    expect(log.lines.map((l: { message: string }) => l.message)).toEqual([`upgrade from 0.0.9 to ${agentVersion()} requested`, 'package verified', `version ${agentVersion()} started`]);

    const second = r.body.data.upgrades[1].upgradeID;
    await agent('upgrade/log', { upgradeId: second, message: 'upgrade failed: checksum mismatch', state: 'failed' }, credentials[1]);
    expect((await call(t, 'GET', `client/node/${nodes[1]}/upgrade/logs`, { token: f.tokens.clientA })).body.data).toMatchObject({ state: 'failed', toVersion: agentVersion() });
  });

  it("a failed upgrade command ends its upgrade; one with no outcome fails after the timeout", async () => {
    const r = await call(t, 'POST', 'client/node/upgrade', { token: f.tokens.clientA, body: { ids: nodes } });
    const [first, second] = r.body.data.upgrades.map((u: { upgradeID: number }) => u.upgradeID);
    const command = (await commandsOf(credentials[0])).find((c: { args: { upgradeId?: number } }) => c.args.upgradeId === first);
    const answered = await t.app.inject({ method: 'POST', url: `/agent/v1/commands/${command.id}/result`, headers: { authorization: `Node ${credentials[0]}` }, payload: { ok: false, message: 'download /agent/package.tgz: 502' } });
    expect(answered.statusCode).toBe(200);
    const log = (await call(t, 'GET', `client/node/${nodes[0]}/upgrade/logs`, { token: f.tokens.clientA })).body.data;
    expect(log.state).toBe('failed');
    expect(log.lines.at(-1).message).toBe('the node answered: download /agent/package.tgz: 502');

    await t.deps.db.updateTable('node_upgrades').set({ created_at: new Date(Date.now() - UPGRADE_TIMEOUT_MS - 1000).toISOString() }).where('id', '=', second).execute();
    expect(await t.deps.scheduler.runNow(UPGRADE_TIMEOUT_JOB)).toBe(true);
    const stale = (await call(t, 'GET', `client/node/${nodes[1]}/upgrade/logs`, { token: f.tokens.clientA })).body.data;
    expect(stale.state).toBe('failed');
    expect(stale.lines.at(-1).message).toMatch(/^no outcome from the node within 15 minutes/);
  });

  it('refuses bad input with 101003 and queues nothing', async () => {
    const before = await t.deps.db.selectFrom('node_commands').select('id').execute();
    for (const body of [{ ids: [] }, {}, { ids: ['x'] }, { ids: [0] }]) {
      expect((await call(t, 'POST', 'client/node/upgrade', { token: f.tokens.clientA, body })).body.code).toBe(101003);
    }
    expect((await call(t, 'GET', 'client/node/0/upgrade/logs', { token: f.tokens.clientA })).body.code).toBe(101003);
    expect(await t.deps.db.selectFrom('node_commands').select('id').execute()).toEqual(before);
  });

  it('refuses another client and a user, and queues nothing', async () => {
    const before = await t.deps.db.selectFrom('node_upgrades').select('id').execute();
    const foreign = await call(t, 'POST', 'client/node/upgrade', { token: f.tokens.clientB, body: { ids: [nodes[0]] } });
    expect([foreign.status, foreign.body.code]).toEqual([404, 101003]);
    expect((await call(t, 'GET', `client/node/${nodes[0]}/upgrade/logs`, { token: f.tokens.clientB })).status).toBe(404);
    expect((await list(f.tokens.clientB)).body).toEqual({ data: [], total: 0 });
    expect((await call(t, 'POST', 'client/node/upgrade', { token: f.tokens.userA, body: { ids: [nodes[0]] } })).status).toBe(401);
    expect((await call(t, 'GET', `client/node/${nodes[0]}/upgrade/logs`, { token: f.tokens.userA })).status).toBe(401);
    expect(await t.deps.db.selectFrom('node_upgrades').select('id').execute()).toEqual(before);
  });
});
