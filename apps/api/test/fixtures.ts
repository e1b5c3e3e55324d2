import { call, makeTenants, type TestApp } from './harness';

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
