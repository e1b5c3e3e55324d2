import { expect, it } from 'vitest';
import { lane } from '../../../test/harness';
import { useInfra } from '../../../test/fixtures';
import { refreshStale } from './service';
import { resolutionsRepo } from './repo';

lane('the resolutions repository reads only the rows of the client’s zones', () => {
  const ctx = useInfra();

  it("leaves another client's zone's rows out, even when asked for them", async () => {
    const { t, f } = ctx;
    await refreshStale(t.deps);
    const rows = resolutionsRepo(t.deps, ctx.clientA);
    expect((await rows.page({ page: 1, pageSize: 100 })).data.map((r) => r.zone_id)).toEqual([f.a.zone]);
    expect((await rows.page({ page: 1, pageSize: 100, zoneID: f.b.zone })).data).toEqual([]);
    expect((await resolutionsRepo(t.deps, ctx.clientB).page({ page: 1, pageSize: 100 })).data.map((r) => r.zone_id)).toEqual([f.b.zone]);
  });
});
