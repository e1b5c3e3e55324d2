import { afterAll, beforeAll, expect, it } from 'vitest';
import { lane, startTestApp, type TestApp } from '../../../test/harness';
import { makeInfra } from '../../../test/fixtures';
import { findAccount } from '../accounts/repo';
import { nodesRepo } from './repo';

lane('the nodes repository reaches only the client’s nodes', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
  });
  afterAll(() => t.close());

  const refused = { code: 101003, status: 404, options: { extra: 'node not found' } };

  it("answers another client's node, by its right id, exactly like a missing one", async () => {
    const nodes = nodesRepo(t.deps, (await findAccount(t.deps.db, f.clientA.id))!);
    expect((await nodes.get(f.a.node)).name).toBe('edge-a');
    expect((await nodes.owned([f.a.node])).map((n) => n.id)).toEqual([f.a.node]);
    for (const id of [f.b.node, f.b.node + 1000]) {
      await expect(nodes.get(id)).rejects.toMatchObject(refused);
      await expect(nodes.owned([f.a.node, id])).rejects.toMatchObject(refused);
    }
    expect((await nodes.page({ page: 1, pageSize: 10 })).data.map((n) => n.id)).toEqual([f.a.node]);
    expect((await nodes.query().where('nodes.id', '=', f.b.node).execute()).length).toBe(0);
  });
});
