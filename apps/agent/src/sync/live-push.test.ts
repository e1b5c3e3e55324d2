import { edge } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { luaData, splitLive } from '../render';
import { livePush, type HeldLive } from './live-push';

const stateOf = (names: string[], port = 80) =>
  edge.desiredState.parse({
    revision: 1,
    structure: {
      zone: { httpPorts: [80], httpsPorts: [443] },
      sites: [{ id: 1, name: 's', domains: names.map((name, i) => ({ id: i + 1, name, origins: [{ host: '192.0.2.1', port }] })) }],
    },
  });

/** The push of a state given what the runtime holds. */
const pushOf = (state: edge.DesiredState, held?: HeldLive) => livePush({ doc: luaData({ state }), lives: splitLive({ state }).lives, held });

describe('live push', () => {
  const first = pushOf(stateOf(['a.test', 'b.test']));

  it('sends the whole list when the runtime holds none known', () => {
    expect(first.push.live?.map((d) => d.name)).toEqual(['a.test', 'b.test']);
    expect(first.push.liveDelta).toBeUndefined();
  });

  it('leaves the list out when it did not change', () => {
    const again = pushOf(stateOf(['a.test', 'b.test']), first.next);
    expect(again.push.live).toBeUndefined();
    expect(again.push.liveDelta).toBeUndefined();
    expect(again.push.liveDigest).toBe(first.push.liveDigest);
  });

  it('sends the names added, changed and removed against the digest held', () => {
    const state = stateOf(['a.test', 'c.test']);
    state.structure.sites[0].domains[0].origins[0].port = 81;
    const delta = pushOf(state, pushOf(stateOf(['a.test', 'b.test'])).next);
    expect(delta.push.live).toBeUndefined();
    expect(delta.push.liveDelta).toMatchObject({ base: first.push.liveDigest, remove: ['b.test'] });
    expect(delta.push.liveDelta?.set.map((d) => [d.name, d.origins[0].port])).toEqual([['a.test', 81], ['c.test', 80]]);
    expect(delta.next?.digest).toBe(delta.push.liveDigest);
    expect(delta.next?.digest).not.toBe(first.push.liveDigest);
  });

  it('looks only into the lists of the sites that are not the ones held', () => {
    const two = edge.desiredState.parse({
      revision: 1,
      structure: {
        zone: { httpPorts: [80], httpsPorts: [443] },
        sites: [1, 2].map((id) => ({ id, name: `s${id}`, domains: [{ id, name: `d${id}.test`, origins: [{ host: '192.0.2.1' }] }] })),
      },
    });
    const [kept, changed] = two.structure.sites;
    const held = pushOf(two).next;
    const moved = { ...changed, domains: [changed.domains[0], { ...changed.domains[0], id: 3, name: 'd3.test' }] };
    const step = pushOf({ ...two, structure: { ...two.structure, sites: [kept, moved] } }, held);
    expect(step.push.liveDelta?.set.map((d) => d.name)).toEqual(['d3.test']);
    expect(step.push.liveDelta?.remove).toEqual([]);
    const gone = pushOf({ ...two, structure: { ...two.structure, sites: [kept] } }, step.next);
    expect(gone.push.liveDelta).toMatchObject({ set: [], remove: ['d2.test', 'd3.test'] });
    expect([...gone.next!.entries.keys()]).toEqual(['d1.test']);
  });

  it('sends the whole list when too many names changed', () => {
    const many = Array.from({ length: 2100 }, (_, i) => `n${i}.test`);
    const whole = pushOf(stateOf(many), first.next);
    expect(whole.push.live).toHaveLength(2100);
    expect(whole.push.liveDelta).toBeUndefined();
  });
});
