import { expect, it } from 'vitest';
import { lane } from '../../../test/harness';
import { useInfra } from '../../../test/fixtures';
import { groupsRepo } from '../groups/repo';
import { virtualNodesRepo } from '../virtual-nodes/repo';
import { zonesRepo } from './repo';

lane('the zones repository reaches only the client’s zones', () => {
  const ctx = useInfra();
  const refused = { code: 101003, status: 404, options: { extra: 'zone not found' } };

  it("answers another client's zone, by its right id, exactly like a missing one", async () => {
    const { t, f } = ctx;
    const zones = zonesRepo(t.deps, ctx.clientA);
    expect((await zones.get(f.a.zone)).name).toBe('zone-a');
    expect((await zones.owned(f.a.zone)).id).toBe(f.a.zone);
    for (const id of [f.b.zone, f.b.zone + 1000]) {
      await expect(zones.get(id)).rejects.toMatchObject(refused);
      await expect(zones.owned(id)).rejects.toMatchObject(refused);
      await expect(zones.item(id)).rejects.toMatchObject(refused);
    }
    expect(await zones.names()).toEqual([{ id: f.a.zone, name: 'zone-a' }]);
    expect((await zones.page({ page: 1, pageSize: 10, name: 'zone' })).data.map((z) => z.id)).toEqual([f.a.zone]);
  });

  it("binds a zone's own repositories to the zone it was given: another zone's group or node is not there", async () => {
    const { t, f } = ctx;
    const zone = await zonesRepo(t.deps, ctx.clientA).get(f.a.zone);
    await expect(groupsRepo(t.deps.db, zone).get(f.b.group)).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'group not found' } });
    expect((await groupsRepo(t.deps.db, zone).names()).map((g) => g.id)).toEqual([f.a.group]);
    expect(await groupsRepo(t.deps.db, zone).zoneNodeCount([f.a.node, f.b.node])).toBe(1);
    expect(await virtualNodesRepo(t.deps.db, zone).ordinaryNode(f.b.node)).toBeUndefined();
    await expect(virtualNodesRepo(t.deps.db, zone).get(f.b.node)).rejects.toMatchObject({ code: 101003, status: 404 });
  });
});
