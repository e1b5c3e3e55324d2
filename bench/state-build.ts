import { buildNodeState } from '../apps/api/src/agent-gateway/state';
import { makeInfra } from '../apps/api/test/fixtures';
import { call, startTestApp } from '../apps/api/test/harness';
import { percentile, summary } from './stats';

/**
 * A node's desired state built by the API, on the tests' database (`EK_TEST_DB=postgres` for PostgreSQL): with
 * `sites` sites of two domains each, built whole (a node new to the instance) and built again after a blacklist change
 * of one site (what every change of a site costs each instance, from the build before it). In process, no HTTP.
 */
export const stateBuild = async ({ sites = 31, whole = 20, changes = 60 }: { sites?: number; whole?: number; changes?: number } = {}) => {
  const t = await startTestApp({ LOG_LEVEL: 'warn' });
  try {
    const f = await makeInfra(t);
    const ids = [f.a.site];
    for (let i = 1; i < sites; i++) ids.push((await call(t, 'POST', 'client/site', { token: f.tokens.clientA, body: { name: `build-${i}`, productID: f.a.product, userID: f.userA.id } })).body.data.id as number);
    for (const id of ids) await call(t, 'POST', `user/site/${id}/domains`, { token: f.tokens.userA, body: { domains: [`a${id}.build.test`, `b${id}.build.test`], upstreams: [{ host: '192.0.2.10', port: 80 }] } });
    let prior = buildNodeState(t.deps, f.a.node);
    await prior;
    const wholeMs: number[] = [];
    for (let i = 0; i < whole; i++) {
      const t0 = performance.now();
      await buildNodeState(t.deps, f.a.node);
      wholeMs.push(performance.now() - t0);
    }
    const afterChange: number[] = [];
    for (let i = 0; i < changes; i++) {
      const res = await call(t, 'POST', `user/site/${ids[i % ids.length]}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: `198.51.100.${(i % 250) + 1}` } });
      if (res.status !== 200) throw new Error(`blacklist change refused: ${JSON.stringify(res.body)}`);
      const t0 = performance.now();
      const next = buildNodeState(t.deps, f.a.node, prior);
      await next;
      afterChange.push(performance.now() - t0);
      prior = next;
    }
    const db = process.env.EK_TEST_DB === 'postgres' ? 'PostgreSQL' : 'SQLite';
    console.log(`state build (${db}, ${sites} sites): whole ${summary({ samples: wholeMs })}; after one site's change ${summary({ samples: afterChange })}`);
    const p = (samples: number[]) => ({ p50: percentile({ samples, p: 50 }), p99: percentile({ samples, p: 99 }) });
    return { db, sites, whole: p(wholeMs), afterChange: p(afterChange) };
  } finally {
    await t.close();
  }
};
