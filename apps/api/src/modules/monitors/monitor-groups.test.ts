import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('monitor groups', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let mine: number;
  let theirs: number;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    await client('POST', 'client/monitor/nodes', { nodeIDs: [f.a.node] });
    await call(t, 'POST', 'client/monitor/nodes', { token: f.tokens.clientB, body: { nodeIDs: [f.b.node] } });
    mine = (await client('GET', 'client/monitor/nodes')).body.data[0].id;
    theirs = (await call(t, 'GET', 'client/monitor/nodes', { token: f.tokens.clientB })).body.data[0].id;
  });
  afterAll(() => t.close());

  it('creates, renames, fills, lists, empties and removes a group', async () => {
    const made = await client('POST', 'client/monitor/group', { name: 'asia', memo: 'edge probes' });
    expect(made.body.data).toMatchObject({ name: 'asia', memo: 'edge probes', monitorIDs: [] });
    const id = made.body.data.id as number;
    expect((await client('PUT', 'client/monitor/group', { id, name: 'asia-east' })).body.data).toMatchObject({ name: 'asia-east', memo: 'edge probes' });
    expect((await client('POST', `client/monitor/group/${id}/nodes`, { nodeIDs: [mine, mine] })).status).toBe(200);
    expect((await client('POST', `client/monitor/group/${id}/nodes`, { nodeIDs: [mine] })).status).toBe(200);
    expect((await client('GET', 'client/monitor/groups')).body).toMatchObject({ total: 1, data: [{ id, monitorIDs: [mine] }] });
    expect((await client('GET', `client/monitor/group/${id}/nodes`)).body).toMatchObject({ total: 1, data: [{ id: mine, nodeName: 'edge-a' }] });
    expect((await client('GET', 'client/monitor/metaGroups')).body.data).toEqual([{ id, name: 'asia-east' }]);
    expect((await client('DELETE', `client/monitor/group/${id}/nodes`, { nodeIDs: [mine] })).status).toBe(200);
    expect((await client('GET', `client/monitor/group/${id}/nodes`)).body.total).toBe(0);
    expect((await client('POST', 'client/monitor/group', { name: '' })).body.code).toBe(101003);
    expect((await client('DELETE', 'client/monitor/groups', { ids: [id] })).status).toBe(200);
    expect((await client('GET', 'client/monitor/groups')).body.total).toBe(0);
    expect((await client('GET', 'client/monitor/nodes')).body.total).toBe(1);
  });

  it("never shows or fills another client's groups, nor with its monitors", async () => {
    const id = (await client('POST', 'client/monitor/group', { name: 'mine' })).body.data.id as number;
    expect((await client('POST', `client/monitor/group/${id}/nodes`, { nodeIDs: [theirs] })).status).toBe(404);
    const as = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientB, body });
    expect((await as('GET', 'client/monitor/groups')).body.total).toBe(0);
    expect((await as('GET', `client/monitor/group/${id}/nodes`)).status).toBe(404);
    expect((await as('POST', `client/monitor/group/${id}/nodes`, { nodeIDs: [theirs] })).status).toBe(404);
    expect((await as('PUT', 'client/monitor/group', { id, name: 'x' })).status).toBe(404);
    expect((await as('DELETE', 'client/monitor/groups', { ids: [id] })).status).toBe(404);
    expect((await client('GET', 'client/monitor/metaGroups')).body.data).toEqual([{ id, name: 'mine' }]);
  });
});
