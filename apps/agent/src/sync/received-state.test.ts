import { edge, ITEM_LIST_MAX, stateDelta } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { fullState } from '../test/fixtures';
import { receivedState } from './received-state';

const named = (state: edge.DesiredState, etag: string): edge.DesiredState => ({ ...state, etag });
/** A delta as the node reads it off the wire. */
const wire = (from: edge.DesiredState, to: edge.DesiredState) =>
  JSON.parse(JSON.stringify(stateDelta.diffStates({ from, to, base: from.etag!, etag: to.etag! }))) as unknown;

/** Three builds in a row: a domain added to another site, one removed, site data and a certificate changed, a site gone. */
const builds = () => {
  const first = named(fullState(), 'r42.a');
  const second = structuredClone({ ...first, revision: 43, etag: 'r43.b' });
  second.structure.sites[1].domains.push(edge.domain.parse({ id: 21, name: 'play.example.org', origins: [{ host: '192.0.2.9' }] }));
  second.structure.sites[0].domains.pop();
  second.data.sites[0].blacklist = ['203.0.113.5'];
  second.data.certificates = [second.data.certificates[0]];
  const third = structuredClone({ ...second, revision: 44, etag: 'r44.c' });
  third.structure.sites.splice(0, 1);
  third.data.sites = [];
  third.structure.zone.httpPorts = [80];
  return [first, second, third];
};

describe('a received state', () => {
  it('applying each delta gives the held state that applying the whole state gives, key for key', () => {
    const [first, second, third] = builds();
    let held = first;
    for (const next of [second, third]) {
      const received = receivedState(wire(held, next), held);
      expect(received).toEqual({ ok: true, state: next });
      if (!received?.ok) throw new Error('refused');
      // the applier compares states by their JSON: a delta must not look like a change of what nginx renders
      expect(JSON.stringify(received.state)).toBe(JSON.stringify(edge.desiredState.parse(JSON.parse(JSON.stringify(next)))));
      held = received.state;
    }
  });

  it('finds the changes in the sites that are not the same objects, a domain moved between two of them included', () => {
    const first = named(fullState(), 'r42.a');
    const [a, b] = first.structure.sites;
    const [shop, wildcard] = a.domains;
    const second = { ...first, revision: 43, etag: 'r43.b', structure: { ...first.structure, sites: [{ ...a, domains: [wildcard] }, { ...b, domains: [shop] }] } };
    const moved = receivedState(wire(first, second), first);
    expect(moved).toEqual({ ok: true, state: second });
    expect((wire(first, second) as stateDelta.StateDelta).domains).toEqual({ set: [{ ...shop, siteId: b.id }], remove: [] });
    const [kept, other] = second.structure.sites;
    const third = { ...second, revision: 44, etag: 'r44.c', structure: { ...second.structure, sites: [kept, { ...other, domains: [{ ...shop, hsts: !shop.hsts }] }] } };
    const delta = wire(second, third) as stateDelta.StateDelta;
    expect([delta.domains.set.map((d) => d.id), delta.domains.remove]).toEqual([[shop.id], []]);
    const received = receivedState(delta, moved!.ok ? moved!.state : undefined);
    expect(received).toEqual({ ok: true, state: third });
    // a site the delta leaves alone stays the same object: the agent's work per site is kept with it
    if (received?.ok && moved?.ok) expect(received.state.structure.sites[0]).toBe(moved.state.structure.sites[0]);
  });

  it('asks for the whole state when the delta is from another build than the held one', () => {
    const [first, second, third] = builds();
    expect(receivedState(wire(second, third), first)).toBeUndefined();
    expect(receivedState(wire(first, second), undefined)).toBeUndefined();
  });

  it('refuses a bad value before it is applied, whether the entry or the whole it makes is wrong', () => {
    const [first, second] = builds();
    const delta = wire(first, second) as { domains: { set: { name: string; origins: { port: number }[] }[] } };
    const badPort = structuredClone(delta);
    badPort.domains.set[0].origins[0].port = 70_000;
    expect(receivedState(badPort, first)).toMatchObject({ ok: false, error: expect.stringContaining('port') });
    const duplicate = structuredClone(delta);
    duplicate.domains.set[0].name = 'shop.example.com';
    expect(receivedState(duplicate, first)).toMatchObject({ ok: false, error: expect.stringContaining('duplicate domain') });
    const crowded = structuredClone(delta);
    crowded.domains.set = Array.from({ length: ITEM_LIST_MAX + 1 }, (_, i) => ({ ...delta.domains.set[0], id: 5000 + i, name: `n${i}.example.org` }));
    expect(receivedState(crowded, first)).toMatchObject({ ok: false, error: expect.stringContaining(`more than ${ITEM_LIST_MAX} domains`) });
    // the held state is untouched
    expect(first).toEqual(named(fullState(), 'r42.a'));
  });
});
