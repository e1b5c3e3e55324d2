import { expect, it } from 'vitest';
import { lane } from '../../../test/harness';
import { useInfra } from '../../../test/fixtures';
import { nodesRepo } from './repo';

lane('the nodes repository reaches only the client’s nodes', () => {
  const ctx = useInfra();
  const refused = { code: 101003, status: 404, options: { extra: 'node not found' } };

  it("answers another client's node, by its right id, exactly like a missing one", async () => {
    const { t, f } = ctx;
    const nodes = nodesRepo(t.deps, ctx.clientA);
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
