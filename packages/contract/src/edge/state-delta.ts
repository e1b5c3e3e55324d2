import { z } from 'zod';
import { jsonOf, perObject } from '../per-object';
import { nodeSettings } from './agent-protocol';
import { acmeChallenge, certificate, domain, siteData, siteStructure, zoneStructure, type DesiredState } from './desired-state';
import { domainModules } from './site-modules';
import { zoneData } from './zone-data';

const id = z.number().int().positive();
const etag = z.string().min(1).max(64);

/** GET /agent/v1/state?base=ETAG: the state the node holds, named by the `etag` it came with. */
export const stateQuery = z.object({
  base: etag.optional().describe('The `etag` of the state the node holds: the answer is a delta from it when the API still keeps that build'),
});

/** The entries of a list, keyed by id, that are new or changed (`set`, whole) and the ids that are gone. */
const changes = <T extends z.ZodType>(item: T) => z.object({ set: z.array(item).default([]), remove: z.array(id).default([]) });

/** A site without its domains: they travel on their own, each with its site's id. */
export const siteHead = siteStructure.omit({ domains: true });
export const siteDomain = domain.extend({ siteId: id });

/**
 * The answer to `?base=` when the API still holds that build: what changed from it to the newest state. The zone's
 * parts and the node's own go whole (they are small); sites, domains, site data, certificates and domain modules
 * as changes by id. Applied to the base it gives the newest state exactly (`applyDelta`); a node that does not hold
 * `base` asks again without it and gets the whole state.
 */
export const stateDelta = z.object({
  base: etag,
  etag,
  revision: z.number().int().min(0),
  zone: zoneStructure,
  zoneData,
  node: nodeSettings.optional(),
  acmeChallenges: z.array(acmeChallenge).default([]),
  sites: changes(siteHead),
  domains: changes(siteDomain),
  siteData: changes(siteData),
  certificates: changes(certificate),
  domainModules: changes(domainModules),
}).describe(
  'What changed from the build `base` to the newest (`etag`): the zone, zone data, node settings and ACME answers whole; ' +
    'sites (without domains), domains (with their siteId), site data, certificates and domain modules as `set` (new or ' +
    'changed, whole) and `remove` (ids). Applied to the base, every list in the order of its ids, it is the newest state ' +
    "exactly. A node whose held build is not `base` asks again without `base` and gets the whole state.",
);
export type StateDelta = z.infer<typeof stateDelta>;
export const isDelta = (answer: unknown): answer is { base: unknown } => typeof answer === 'object' && answer !== null && 'base' in answer;

/** A site's head and its domains with its id, made once per site object: a site a build keeps keeps them too. */
const cutOf = perObject((site: DesiredState['structure']['sites'][number]) => {
  const { domains, ...head } = site;
  return { head, domains: domains.map((d) => ({ ...d, siteId: site.id })) };
});

/** The lists a delta carries, by id, from a whole state, the domains aside (diffDomains); each entry's JSON is what decides it changed. */
const listsOf = (state: DesiredState) => ({
  sites: state.structure.sites.map((s) => cutOf(s).head),
  siteData: state.data.sites,
  certificates: state.data.certificates,
  domainModules: state.data.domainModules,
});
type Lists = ReturnType<typeof listsOf>;
const KEYS: { [K in keyof Lists]: (item: Lists[K][number]) => number } = {
  sites: (s) => s.id,
  siteData: (d) => d.siteId,
  certificates: (c) => c.id,
  domainModules: (m) => m.domainId,
};

type Keyed<T> = { items: T[]; key: (item: T) => number; byId: Map<number, T> };
const keyed = <T>(items: T[], key: (item: T) => number): Keyed<T> => ({ items, key, byId: new Map(items.map((x) => [key(x), x])) });
const indexLists = (state: DesiredState) => {
  const lists = listsOf(state);
  return {
    sites: keyed(lists.sites, KEYS.sites),
    siteData: keyed(lists.siteData, KEYS.siteData),
    certificates: keyed(lists.certificates, KEYS.certificates),
    domainModules: keyed(lists.domainModules, KEYS.domainModules),
  };
};

const indexed = new WeakMap<DesiredState, ReturnType<typeof indexLists>>();
/** Each list's entries by id, worked out once per state (the API diffs one build against several). */
const indexOf = (state: DesiredState) => {
  let index = indexed.get(state);
  if (!index) {
    index = indexLists(state);
    indexed.set(state, index);
  }
  return index;
};

const diffList = <T extends object>(from: Keyed<T>, to: Keyed<T>) => ({
  set: to.items.filter((x) => {
    const was = from.byId.get(to.key(x));
    return was !== x && (was === undefined || jsonOf(was) !== jsonOf(x));
  }),
  remove: [...from.byId.keys()].filter((k) => !to.byId.has(k)),
});

/**
 * The domains' changes, looked for in the sites that are not the same objects in both states alone: a domain that
 * moves changes both its sites.
 */
const diffDomains = (from: DesiredState, to: DesiredState) => {
  const before = new Map(from.structure.sites.map((s) => [s.id, s]));
  const after = new Set(to.structure.sites);
  const domainsOf = (sites: DesiredState['structure']['sites']) => keyed(sites.flatMap((s) => cutOf(s).domains), (d) => d.id);
  return diffList(domainsOf(from.structure.sites.filter((s) => !after.has(s))), domainsOf(to.structure.sites.filter((s) => before.get(s.id) !== s)));
};

/** The delta that turns `from` (the build named `base`) into `to`. */
export const diffStates = ({ from, to, base, etag }: { from: DesiredState; to: DesiredState; base: string; etag: string }): StateDelta => {
  const a = indexOf(from);
  const b = indexOf(to);
  return {
    base,
    etag,
    revision: to.revision,
    zone: to.structure.zone,
    zoneData: to.data.zone,
    node: to.node,
    acmeChallenges: to.data.acmeChallenges,
    sites: diffList(a.sites, b.sites),
    domains: diffDomains(from, to),
    siteData: diffList(a.siteData, b.siteData),
    certificates: diffList(a.certificates, b.certificates),
    domainModules: diffList(a.domainModules, b.domainModules),
  };
};

/** A site's domain ids, once per list: a site a delta leaves alone keeps its list (applyDelta). */
const idsOf = perObject((domains: DesiredState['structure']['sites'][number]['domains']) => new Set(domains.map((d) => d.id)));

/** A list with the delta's changes in, in the order of the ids, as a whole state keeps it. */
const patch = <T>(items: T[], key: (x: T) => number, { set, remove }: { set: T[]; remove: number[] }) => {
  const byId = new Map(items.map((x) => [key(x), x]));
  for (const k of remove) byId.delete(k);
  for (const x of set) byId.set(key(x), x);
  return [...byId.values()].sort((x, y) => key(x) - key(y));
};

/**
 * The state a delta gives from the base the node holds; the caller checks it with `stateIssues` (the delta's own
 * entries were checked by its schema). The held state is not changed; only the sites whose domains changed get a
 * new domain list, so that one change costs in proportion to it.
 */
export const applyDelta = (held: DesiredState, delta: StateDelta): DesiredState => {
  const { set, remove } = delta.domains;
  const gone = new Set([...remove, ...set.map((d) => d.id)]);
  const touched = new Set(set.map((d) => d.siteId));
  for (const site of held.structure.sites) if ([...gone].some((id) => idsOf(site.domains).has(id))) touched.add(site.id);
  const heldDomains = new Map(held.structure.sites.map((s) => [s.id, s.domains]));
  const domainsOf = (siteId: number) => {
    const kept = heldDomains.get(siteId) ?? [];
    if (!touched.has(siteId)) return kept;
    const added = set.filter((d) => d.siteId === siteId).map(({ siteId: _, ...d }) => d);
    return [...kept.filter((d) => !gone.has(d.id)), ...added].sort((a, b) => a.id - b.id);
  };
  const heads = held.structure.sites.map(({ domains: _, ...head }) => head);
  // a site the delta leaves as it was stays the same object: the agent's work per site is kept with it
  const headChanged = new Set(delta.sites.set.map((s) => s.id));
  const heldSites = new Map(held.structure.sites.map((s) => [s.id, s]));
  const siteOf = ({ id, name, ...head }: (typeof heads)[number]) => {
    const kept = heldSites.get(id);
    return kept && !headChanged.has(id) && !touched.has(id) ? kept : { id, name, domains: domainsOf(id), ...head };
  };
  return {
    revision: delta.revision,
    etag: delta.etag,
    structure: {
      zone: delta.zone,
      // the keys in the whole state's order: the agent compares states by their JSON
      sites: patch(heads, KEYS.sites, delta.sites).map(siteOf),
    },
    data: {
      sites: patch(held.data.sites, KEYS.siteData, delta.siteData),
      certificates: patch(held.data.certificates, KEYS.certificates, delta.certificates),
      domainModules: patch(held.data.domainModules, KEYS.domainModules, delta.domainModules),
      zone: delta.zoneData,
      acmeChallenges: delta.acmeChallenges,
    },
    ...(delta.node ? { node: delta.node } : {}),
  };
};
