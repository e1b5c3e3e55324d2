import type { edge } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { DomainTable, UpstreamTable } from '../db/schema';
import type { AppDeps } from '../deps';

export type StateDeps = Pick<AppDeps, 'db' | 'secrets' | 'log'>;
type State = edge.DesiredStateInput;
export type SiteStructure = State['structure']['sites'][number];
export type DomainStructure = SiteStructure['domains'][number];
type Data = NonNullable<State['data']>;
export type SiteData = NonNullable<Data['sites']>[number];

/** The zone a node's state is built for (its stored settings as JSON, its revision) and the node's own columns. */
export type StateZone = { id: number; node_id: number; settings: string; revision: number; cache_capacity: number; monitor: string | null; geneva: string | null };
export type StateContext = { deps: StateDeps; zone: StateZone };

/** What a feature adds once per state: fields of the zone's structure and data, of the node's settings, and answers to serve. */
export type ZonePart = {
  structure?: Partial<State['structure']['zone']>;
  data?: Partial<NonNullable<Data['zone']>>;
  node?: Partial<State['node']>;
  acmeChallenges?: edge.AcmeChallenge[];
};

/**
 * What one edge feature adds to a node's desired state, read by the feature's own module. The node's state
 * (agent-gateway/state.ts) is the served sites, their enabled domains and origins, and what every feature of
 * EDGE_FEATURES (modules/edge-features.ts) adds to them; each slot is given one batch of the zone's sites.
 * Fields are merged in the list's order. `sites` is asked of one feature after another, so a feature sees the site
 * fields of the features listed before it; every other slot is asked of all the features at once (its reads go to
 * the database together), the zone's and the domains' before the sites', the rest with the finished sites.
 */
export type EdgeFeature = {
  name: string;
  zone?: (ctx: StateContext) => Promise<ZonePart>;
  /** Fields of the batch's domains, by domain id (the domains' rows and their enabled origins' rows). */
  domains?: (ctx: StateContext, domains: Selectable<DomainTable>[], origins: Selectable<UpstreamTable>[]) => Promise<Map<number, Partial<DomainStructure>>>;
  /** Fields of the batch's sites, by site id: nginx renders them, a change reloads it. */
  sites?: (ctx: StateContext, sites: SiteStructure[]) => Promise<Map<number, Partial<SiteStructure>>>;
  /** What the edge's Lua runtime takes of each site without a reload, by site id; a site without any is left out of data.sites. */
  siteData?: (ctx: StateContext, sites: SiteStructure[]) => Promise<Map<number, Partial<Omit<SiteData, 'siteId'>>>>;
  /** The traffic modules of the batch's domains. */
  domainModules?: (ctx: StateContext, sites: SiteStructure[]) => Promise<edge.DomainModules[]>;
  /** The certificates the batch's domains serve, keys decrypted for the node. */
  certificates?: (ctx: StateContext, sites: SiteStructure[]) => Promise<edge.Certificate[]>;
};

/** The rows by a key of theirs, each group in the rows' order: one pass, where a filter per key would be quadratic. */
export const groupBy = <T, K>(rows: T[], key: (row: T) => K) => {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
};
