import { edge } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { luaData } from '../render';
import { livePush } from './live-push';

const stateOf = (names: string[], port = 80) =>
  edge.desiredState.parse({
    revision: 1,
    structure: {
      zone: { httpPorts: [80], httpsPorts: [443] },
      sites: [{ id: 1, name: 's', domains: names.map((name, i) => ({ id: i + 1, name, origins: [{ host: '192.0.2.1', port }] })) }],
    },
  });

describe('live push', () => {
  const first = livePush({ doc: luaData({ state: stateOf(['a.test', 'b.test']) }) });

  it('sends the whole list when the runtime holds none known', () => {
    expect(first.push.live?.map((d) => d.name)).toEqual(['a.test', 'b.test']);
    expect(first.push.liveDelta).toBeUndefined();
  });

  it('leaves the list out when it did not change', () => {
    const again = livePush({ doc: luaData({ state: stateOf(['a.test', 'b.test']) }), held: first.next });
    expect(again.push.live).toBeUndefined();
    expect(again.push.liveDelta).toBeUndefined();
    expect(again.push.liveDigest).toBe(first.push.liveDigest);
  });

  it('sends the names added, changed and removed against the digest held', () => {
    const state = stateOf(['a.test', 'c.test']);
    state.structure.sites[0].domains[0].origins[0].port = 81;
    const delta = livePush({ doc: luaData({ state }), held: first.next });
    expect(delta.push.live).toBeUndefined();
    expect(delta.push.liveDelta).toMatchObject({ base: first.push.liveDigest, remove: ['b.test'] });
    expect(delta.push.liveDelta?.set.map((d) => [d.name, d.origins[0].port])).toEqual([['a.test', 81], ['c.test', 80]]);
    expect(delta.next?.digest).toBe(delta.push.liveDigest);
    expect(delta.next?.digest).not.toBe(first.push.liveDigest);
  });

  it('sends the whole list when too many names changed', () => {
    const many = Array.from({ length: 2100 }, (_, i) => `n${i}.test`);
    const whole = livePush({ doc: luaData({ state: edge.desiredState.parse({ ...stateOf([]), structure: { ...stateOf([]).structure, sites: [{ id: 1, name: 's', domains: many.map((name, i) => ({ id: i + 1, name, origins: [{ host: '192.0.2.1' }] })) }] } }) }), held: first.next });
    expect(whole.push.live).toHaveLength(2100);
    expect(whole.push.liveDelta).toBeUndefined();
  });
});
