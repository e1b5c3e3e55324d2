import { edge, stateDelta } from '@edgekeep/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeInfra } from '../../test/fixtures';
import { enrolNode } from '../../test/agent-logs';
import { call, lane, startTestApp, type TestApp } from '../../test/harness';
import { buildNodeState } from './state';
import { createStateCache } from './state-cache';

lane('desired state as a delta from the build a node holds', () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof makeInfra>>;
  let nodeA: string;
  let nodeB: string;

  const stateOf = async (credential: string, base?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/agent/v1/state${base ? `?base=${base}` : ''}`, headers: { authorization: `Node ${credential}` } });
    expect(res.statusCode).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const whole = async (credential: string) => edge.desiredState.parse(await stateOf(credential));
  const domainsOf = (state: edge.DesiredState) => state.structure.sites.flatMap((s) => s.domains.map((d) => d.name));
  const addDomain = async (site: number, name: string) =>
    expect((await call(t, 'POST', `user/site/${site}/domains`, { token: f.tokens.userA, body: { domains: [name], upstreams: [{ host: '192.0.2.20' }] } })).status).toBe(200);

  beforeAll(async () => {
    t = await startTestApp();
    f = await makeInfra(t);
    nodeA = await enrolNode(t, f.tokens.clientA, f.a.node);
    nodeB = await enrolNode(t, f.tokens.clientB, f.b.node);
    await addDomain(f.a.site, 'one.delta.test');
  });
  afterAll(() => t.close());

  it('answers what changed since the held build, and applied to it the delta is the newest whole state', async () => {
    const before = await whole(nodeA);
    expect(before.etag).toBeTruthy();
    await addDomain(f.a.site, 'two.delta.test');
    await call(t, 'POST', `user/site/${f.a.site}/firewall/setting/blacklists`, { token: f.tokens.userA, body: { ips: '198.51.100.9' } });
    const answer = await stateOf(nodeA, before.etag);
    expect(answer.base).toBe(before.etag);
    const delta = stateDelta.stateDelta.parse(answer);
    const after = await whole(nodeA);
    expect(delta).toMatchObject({ etag: after.etag, revision: after.revision });
    expect(delta.domains.set.map((d) => d.name)).toEqual(['two.delta.test']);
    expect(delta.domains.remove).toEqual([]);
    expect(delta.siteData.set.map((s) => s.blacklist)).toEqual([['198.51.100.9']]);
    expect(stateDelta.applyDelta(before, delta)).toEqual(after);

    const removed = after.structure.sites[0].domains.find((d) => d.name === 'one.delta.test')!;
    expect((await call(t, 'DELETE', `user/site/${f.a.site}/domains`, { token: f.tokens.userA, body: { ids: [removed.id] } })).status).toBe(200);
    const next = stateDelta.stateDelta.parse(await stateOf(nodeA, after.etag));
    expect([next.domains.set, next.domains.remove]).toEqual([[], [removed.id]]);
    expect(stateDelta.applyDelta(after, next)).toEqual(await whole(nodeA));
  });

  it('names a build by what it holds: another API instance that built the same state answers a delta from it', async () => {
    // two caches on one database, as two API instances behind a balancer
    const [one, two] = [0, 1].map(() => createStateCache({ db: t.deps.db, build: (id) => buildNodeState(t.deps, id), revisions: t.deps.revisions }));
    const node = { id: f.a.node, zone_id: f.a.zone };
    const held = await one(node);
    expect((await two(node)).etag).toBe(held.etag);
    await addDomain(f.a.site, 'three.delta.test');
    const delta = stateDelta.stateDelta.parse(await two(node, held.etag));
    expect(delta.base).toBe(held.etag);
    const newest = await one(node);
    expect(newest.etag).not.toBe(held.etag);
    expect(stateDelta.applyDelta(held, delta)).toEqual(newest);
  });

  it('answers the whole state for a build it does not hold', async () => {
    const answer = await stateOf(nodeA, '1.unknown.1');
    expect(answer.base).toBeUndefined();
    expect(edge.desiredState.parse(answer)).toEqual(await whole(nodeA));
  });

  it('a watch that names the held build and wakes past `since` carries the delta from it; without a base, or past a build not kept, none', async () => {
    const watch = async (credential: string, query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/agent/v1/watch?${query}`, headers: { authorization: `Node ${credential}` } });
      expect(res.statusCode).toBe(200);
      return res.json() as { revision: number; delta?: unknown };
    };
    const held = await whole(nodeA);
    await addDomain(f.a.site, 'four.delta.test');
    const answer = await watch(nodeA, `since=${held.revision}&base=${held.etag}`);
    const after = await whole(nodeA);
    expect(answer.revision).toBe(after.revision);
    const delta = stateDelta.stateDelta.parse(answer.delta);
    expect(delta.domains.set.map((d) => d.name)).toEqual(['four.delta.test']);
    expect(stateDelta.applyDelta(held, delta)).toEqual(after);
    expect((await watch(nodeA, `since=${held.revision}`)).delta).toBeUndefined();
    expect((await watch(nodeA, `since=${held.revision}&base=1.unknown.1`)).delta).toBeUndefined();
    // another zone's build named by a node: no delta, so nothing of that zone
    expect((await watch(nodeB, `since=0&base=${held.etag}`)).delta).toBeUndefined();
    // a base of the wrong shape is refused like the state call's
    const bad = await t.app.inject({ method: 'GET', url: `/agent/v1/watch?since=0&base=${'x'.repeat(65)}`, headers: { authorization: `Node ${nodeA}` } });
    expect(bad.statusCode).toBe(400);
  });

  it('documents the protocol in the API document', async () => {
    const doc = (await call(t, 'GET', '../docs/json')).body as unknown as { paths: Record<string, { get: { parameters: { name: string }[]; responses: object } }> };
    const state = doc.paths['/agent/v1/state'].get;
    expect(state.parameters.map((p) => p.name)).toContain('base');
    const answer = JSON.stringify(state.responses);
    expect(answer).toContain('What changed from the build');
    expect(answer).toContain('"domainModules"');
    const watch = doc.paths['/agent/v1/watch'].get;
    expect(watch.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['since', 'base']));
    expect(JSON.stringify(watch.responses)).toContain('"delta"');
  });

  it("never gives a node another zone's domains, whatever base it names", async () => {
    const held = await whole(nodeA);
    const answer = await stateOf(nodeB, held.etag);
    expect(answer.base).toBeUndefined();
    const own = edge.desiredState.parse(answer);
    expect(domainsOf(own)).not.toContain('two.delta.test');
    expect(own.etag).not.toBe(held.etag);
  });
});
