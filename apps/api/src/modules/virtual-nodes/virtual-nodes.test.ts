import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';

lane('virtual nodes', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  const client = (method: string, url: string, body?: object) => call(t, method, url, { token: f.tokens.clientA, body });
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  it('creates a v- node with CNAME and IP records, lists, changes and removes it', async () => {
    const made = await client('POST', `client/zone/${f.a.zone}/virtualNode`, {
      name: 'vn-1',
      switchInterval: 30,
      records: [{ type: 'cname', value: 'Edge.Example.com' }, { type: 'ip', value: '203.0.113.5' }, { type: 'node', nodeID: f.a.node }],
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      nodeUID: expect.stringMatching(/^v-[0-9a-f]{10}$/),
      zoneID: f.a.zone,
      switchInterval: 30,
      records: [
        { type: 'cname', value: 'edge.example.com', nodeID: null },
        { type: 'ip', value: '203.0.113.5', nodeID: null },
        { type: 'ip', value: '192.0.2.1', nodeID: f.a.node },
      ],
    });
    const id = made.body.data.id as number;
    const list = await client('GET', `client/zone/${f.a.zone}/virtualNodes?name=vn`);
    expect(list.body).toMatchObject({ total: 1, data: [{ id, name: 'vn-1' }] });
    const nodes = await client('GET', `client/nodes?zoneID=${f.a.zone}`);
    expect(nodes.body.data).toContainEqual(expect.objectContaining({ id, virtual: true }));

    const changed = await client('PUT', `client/zone/${f.a.zone}/virtualNode`, { id, switchInterval: 120, records: [{ type: 'ip', value: '2001:db8::1' }] });
    expect(changed.body.data).toMatchObject({ switchInterval: 120, name: 'vn-1', records: [{ type: 'ip', value: '2001:db8::1', nodeID: null }] });
    expect((await client('DELETE', `client/zone/${f.a.zone}/virtualNode`, { id })).status).toBe(200);
    expect((await client('GET', `client/zone/${f.a.zone}/virtualNodes`)).body.total).toBe(0);
  });

  it('validates records and interval; changes nothing on bad input', async () => {
    const bad = [
      { name: 'x', records: [] },
      { name: 'x', records: [{ type: 'ip', value: '999.1.1.1' }] },
      { name: 'x', records: [{ type: 'cname', value: 'not a host' }] },
      { name: 'x', switchInterval: 0, records: [{ type: 'ip', value: '203.0.113.5' }] },
      { name: 'x', records: [{ type: 'mx', value: 'a.example.com' }] },
    ];
    for (const body of bad) expect((await client('POST', `client/zone/${f.a.zone}/virtualNode`, body)).body.code).toBe(101003);
    const foreignNode = await client('POST', `client/zone/${f.a.zone}/virtualNode`, { name: 'x', records: [{ type: 'node', nodeID: f.b.node }] });
    expect(foreignNode.body.code).toBe(101003);
    expect((await client('GET', `client/zone/${f.a.zone}/virtualNodes`)).body.total).toBe(0);
  });

  it('206001 while a group holds the virtual node; 202004 while a record points at a node', async () => {
    const vn = (await client('POST', `client/zone/${f.a.zone}/virtualNode`, { name: 'vn-2', records: [{ type: 'node', nodeID: f.a.node }] })).body.data.id as number;
    const group = (await client('POST', `client/zone/${f.a.zone}/group`, { name: 'virtual-line', nodeIDs: [vn] })).body.data.id as number;
    expect((await client('DELETE', `client/zone/${f.a.zone}/virtualNode`, { id: vn })).body.code).toBe(206001);
    await client('DELETE', `client/zone/${f.a.zone}/group`, { id: group });
    await client('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [] });
    expect((await client('DELETE', 'client/nodes', { ids: [f.a.node] })).body.code).toBe(202004);
    expect((await client('DELETE', `client/zone/${f.a.zone}/virtualNode`, { id: vn })).status).toBe(200);
    await client('PUT', `client/zone/${f.a.zone}/group`, { id: f.a.group, nodeIDs: [f.a.node] });
  });

  it("never shows or changes another client's virtual nodes", async () => {
    const b = (await call(t, 'POST', `client/zone/${f.b.zone}/virtualNode`, { token: f.tokens.clientB, body: { name: 'vb', records: [{ type: 'ip', value: '203.0.113.9' }] } })).body.data.id;
    expect((await client('GET', `client/zone/${f.b.zone}/virtualNodes`)).status).toBe(404);
    expect((await client('POST', `client/zone/${f.b.zone}/virtualNode`, { name: 'x', records: [{ type: 'ip', value: '203.0.113.5' }] })).status).toBe(404);
    expect((await client('PUT', `client/zone/${f.a.zone}/virtualNode`, { id: b, name: 'stolen' })).status).toBe(404);
    expect((await client('DELETE', `client/zone/${f.a.zone}/virtualNode`, { id: b })).status).toBe(404);
    expect((await call(t, 'GET', `client/zone/${f.b.zone}/virtualNodes`, { token: f.tokens.clientB })).body.data[0]).toMatchObject({ name: 'vb' });
  });
});
