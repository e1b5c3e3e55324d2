import { afterAll, beforeAll } from 'vitest';
import { findAccount, type Account } from '../src/modules/accounts/repo';
import { call, makeTenants, startTestApp, type TestApp } from './harness';

/**
 * Two tenants with infrastructure: client A has a zone with one node in a group and a product on it, and a
 * site of user A made from it; client B has the same shape. Answers the ids and tokens.
 */
export async function makeInfra(t: TestApp) {
  const f = await makeTenants(t);
  const build = async (client: string, userId: number, tag: string) => {
    const zone = (await call(t, 'POST', 'client/zone', { token: client, body: { name: `zone-${tag}` } })).body.data.id as number;
    const node = (await call(t, 'POST', 'client/node', { token: client, body: { zoneID: zone, name: `edge-${tag}`, ip: '192.0.2.1' } })).body.data.id as number;
    const group = (await call(t, 'POST', `client/zone/${zone}/group`, { token: client, body: { name: `line-${tag}`, nodeIDs: [node] } })).body.data.id as number;
    const product = (await call(t, 'POST', 'client/product', { token: client, body: { name: `plan-${tag}`, zoneID: zone, groupID: group } })).body.data.id as number;
    const site = (await call(t, 'POST', 'client/site', { token: client, body: { name: `site-${tag}`, productID: product, userID: userId } })).body.data.id as number;
    return { zone, node, group, product, site };
  };
  return { ...f, a: await build(f.tokens.clientA, f.userA.id, 'a'), b: await build(f.tokens.clientB, f.userB.id, 'b') };
}

/**
 * For a lane's tests: a test app with `makeInfra`'s two tenants, started before them and closed after, and the two
 * clients' accounts as a repository takes them.
 */
export function useInfra(env: Record<string, string> = {}) {
  const ctx = {} as { t: TestApp; f: Awaited<ReturnType<typeof makeInfra>>; clientA: Account; clientB: Account };
  beforeAll(async () => {
    ctx.t = await startTestApp(env);
    ctx.f = await makeInfra(ctx.t);
    ctx.clientA = (await findAccount(ctx.t.deps.db, ctx.f.clientA.id))!;
    ctx.clientB = (await findAccount(ctx.t.deps.db, ctx.f.clientB.id))!;
  });
  afterAll(() => ctx.t.close());
  return ctx;
}
