import { edge } from '@edgekeep/contract';
import { describe, expect, it } from 'vitest';
import { fullState } from '../test/fixtures';
import { splitLive } from './live';
import { liveOriginNames, withOriginAddresses } from './live-origins';

/** The full fixture (whose rendered site has an origin named by host name) with a live site of one named origin and one address. */
const withNamedSite = () => {
  const state = fullState();
  state.structure.sites.push(
    edge.siteStructure.parse({
      id: 3,
      name: 'Named',
      domains: [
        { id: 31, name: 'named.example.org', origins: [{ host: 'origin.example.net', weight: 4, maxFails: 2 }, { host: '192.0.2.5', backup: true }] },
        { id: 32, name: 'plain.example.org', origins: [{ host: '192.0.2.6' }] },
      ],
    }),
  );
  return state;
};

describe('live origins named by host name', () => {
  it('names only the live origins that need a lookup: a server block keeps its names for nginx', () => {
    expect(liveOriginNames({ state: withNamedSite() })).toEqual(['origin.example.net']);
    expect(liveOriginNames({ state: fullState() })).toEqual([]);
  });

  it('gives a live origin one entry per address with its settings, and leaves a server block its name', () => {
    const state = withNamedSite();
    const addresses = new Map([['origin.example.net', ['198.51.100.1', '198.51.100.2']]]);
    const { state: served, unresolved } = withOriginAddresses({ state, addresses });
    expect(unresolved).toEqual([]);
    const named = splitLive({ state: served }).live.find((d) => d.name === 'named.example.org');
    expect(named?.origins).toEqual([
      { host: '198.51.100.1', port: 80, weight: 4, backup: false, maxFails: 2, failTimeout: 10 },
      { host: '198.51.100.2', port: 80, weight: 4, backup: false, maxFails: 2, failTimeout: 10 },
      { host: '192.0.2.5', port: 80, weight: 1, backup: true, maxFails: 1, failTimeout: 10 },
    ]);
    // the rendered site (its origin backup.example.net is nginx's to resolve) and a domain of addresses stay as they are
    expect(served.structure.sites[0]).toBe(state.structure.sites[0]);
    expect(served.structure.sites[2].domains[1]).toBe(state.structure.sites[2].domains[1]);
  });

  it('keeps a site given the same addresses the same object, and names the origins without any', () => {
    const state = withNamedSite();
    const first = withOriginAddresses({ state, addresses: new Map([['origin.example.net', ['198.51.100.1']]]) });
    const again = withOriginAddresses({ state, addresses: new Map([['origin.example.net', ['198.51.100.1']]]) });
    expect(again.state.structure.sites[2]).toBe(first.state.structure.sites[2]);
    const moved = withOriginAddresses({ state, addresses: new Map([['origin.example.net', ['198.51.100.9']]]) });
    expect(moved.state.structure.sites[2]).not.toBe(first.state.structure.sites[2]);
    expect(withOriginAddresses({ state, addresses: new Map() }).unresolved).toEqual(['origin.example.net']);
    // a state without live names is served as it is
    const plain = fullState();
    expect(withOriginAddresses({ state: plain, addresses: new Map() }).state).toBe(plain);
  });
});
