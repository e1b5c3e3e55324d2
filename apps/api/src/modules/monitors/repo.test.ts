import { expect, it } from 'vitest';
import { lane } from '../../../test/harness';
import { useInfra } from '../../../test/fixtures';
import { monitorGroupsRepo, monitorsRepo } from './repo';

lane('the monitors repositories reach only the client’s monitors and monitor groups', () => {
  const ctx = useInfra();

  it("refuses another client's node, monitor and monitor group like missing ones", async () => {
    const { t, f } = ctx;
    const monitorsA = monitorsRepo(t.deps, ctx.clientA);
    const monitorsB = monitorsRepo(t.deps, ctx.clientB);
    expect((await monitorsA.ownNodes([f.a.node, f.b.node])).map((n) => n.id)).toEqual([f.a.node]);
    await monitorsB.insert(await monitorsB.ownNodes([f.b.node]), { type: 'status', url: '{host}/', port: 80, status_code: '200', content: '', interval: 60, failure_action: 'none', enabled: 1, status: 0 });
    const [monitorB] = await monitorsB.all();
    expect(await monitorsA.all()).toEqual([]);
    await expect(monitorsA.owned([monitorB.id])).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'monitor not found' } });
    const groupB = await monitorGroupsRepo(t.deps.db, ctx.clientB).insert({ name: 'g', memo: '' });
    await expect(monitorGroupsRepo(t.deps.db, ctx.clientA).get(groupB)).rejects.toMatchObject({ code: 101003, status: 404, options: { extra: 'monitor group not found' } });
    expect(await monitorGroupsRepo(t.deps.db, ctx.clientA).all()).toEqual([]);
  });
});
