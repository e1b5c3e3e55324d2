import { isIP } from 'node:net';
import { perObject, type edge } from '@edgekeep/contract';
import { splitLive, type LiveDomain } from './live';

const named = (o: { host: string }) => isIP(o.host) === 0;

/** The host names of a site's live origins, once per list (render/live.ts keeps a site's list while the site stays). */
const namesOf = perObject((live: LiveDomain[]) => [...new Set(live.flatMap((d) => d.origins.filter(named).map((o) => o.host)))]);

/** The host names that the live domains' origins are given by: the agent resolves them, as nginx does a server block's at load time. */
export const liveOriginNames = ({ state }: { state: edge.DesiredState }) => [...new Set(splitLive({ state }).lives.flatMap(namesOf))];

/** Each site given its addresses, kept with the addresses it was given: the same addresses, the same site object. */
const resolvedSites = new WeakMap<edge.SiteStructure, { key: string; site: edge.SiteStructure }>();

/**
 * The state with each live domain's origin named by host name replaced by one origin per address of that name
 * (`addresses`: name -> addresses), its weight, backup and health settings kept, as nginx makes a server line of a
 * name into one server per address. The Host and SNI name sent to the origin stay the client's ($host), as in a
 * server block. Domains on server blocks of their own keep their names for nginx. `unresolved`: live origin names
 * without addresses; a state with any is not served (nginx refuses a server block's unresolved name the same way).
 */
export const withOriginAddresses = ({ state, addresses }: { state: edge.DesiredState; addresses: ReadonlyMap<string, string[]> }) => {
  const { lives } = splitLive({ state });
  const unresolved = new Set<string>();
  let changed = false;
  const sites = state.structure.sites.map((site, i) => {
    const names = namesOf(lives[i]);
    if (!names.length) return site;
    changed = true;
    for (const name of names) if (!addresses.get(name)?.length) unresolved.add(name);
    const key = JSON.stringify(names.map((name) => [name, addresses.get(name) ?? []]));
    const known = resolvedSites.get(site);
    if (known?.key === key) return known.site;
    const live = new Set(lives[i].map((d) => d.domain));
    const resolve = (o: edge.Origin) => (named(o) ? (addresses.get(o.host) ?? [o.host]).map((host) => ({ ...o, host })) : [o]);
    const domains = site.domains.map((d) => (live.has(d.id) && d.origins.some(named) ? { ...d, origins: d.origins.flatMap(resolve) } : d));
    const resolved = { ...site, domains };
    resolvedSites.set(site, { key, site: resolved });
    return resolved;
  });
  return { state: changed ? { ...state, structure: { ...state.structure, sites } } : state, unresolved: [...unresolved] };
};
