import { createHash } from 'node:crypto';
import { edge, ITEM_LIST_MAX } from '@edgekeep/contract';
import { toCount, type Db } from '../db';
import { domainCountsOfSites, enabledDomainsOfSites, enabledOriginsOfDomains } from '../modules/domains/edge-repo';
import { EDGE_FEATURES } from '../modules/edge-features';
import { stateZoneOfNode } from '../modules/nodes/repo';
import { siteNames, sitesServedByNode } from '../modules/sites/repo';
import { groupBy, type DomainStructure, type SiteData, type SiteStructure, type StateContext, type StateDeps, type ZonePart } from './edge-feature';

/** The batch's sites with their enabled domains that have enabled origins; the edge features add the rest. */
async function sitesOf(ctx: StateContext, ids: number[]): Promise<SiteStructure[]> {
  const { db } = ctx.deps;
  const sites = await siteNames(db, ids);
  if (!sites.length) return [];
  const domains = await enabledDomainsOfSites(db, sites.map((s) => s.id));
  const origins = domains.length ? await enabledOriginsOfDomains(db, domains.map((d) => d.id)) : [];
  const added = new Map<number, Partial<DomainStructure>>();
  for (const fields of await Promise.all(EDGE_FEATURES.flatMap((f) => (f.domains ? [f.domains(ctx, domains, origins)] : []))))
    for (const [id, more] of fields) added.set(id, { ...added.get(id), ...more });
  const domainsBySite = groupBy(domains, (d) => d.site_id);
  const originsByDomain = groupBy(origins, (o) => o.domain_id);
  return sites.map((site) => ({
    id: site.id,
    name: site.name,
    domains: (domainsBySite.get(site.id) ?? [])
      .map((d) => ({
        id: d.id,
        name: d.name,
        originProtocol: d.protocol,
        forceSSL: d.force_ssl === 1,
        hsts: d.hsts === 1,
        certificateId: d.certificate_id,
        ...added.get(d.id),
        origins: (originsByDomain.get(d.id) ?? [])
          .map((o) => ({ host: o.host, port: o.port, weight: o.weight, backup: o.backup === 1, maxFails: o.max_fails, failTimeout: o.fail_timeout })),
      }))
      .filter((d) => d.origins.length > 0),
  }));
}

/**
 * The one function that builds a node's desired state: what each edge feature (modules/edge-features.ts) adds for
 * the zone and the node, and every site served in the zone with its enabled domains and origins and what each
 * feature adds to them (settings, pages, ports, firewall, modules, data, certificates). Sites are built in batches of bounded size; a site that cannot be built or carried is logged and left out, so
 * that one tenant's site never stops the zone's other sites from reaching the edge.
 *
 * `prior`: an earlier build for the same node inputs. Its sites are taken as they are but those changed since it
 * (site_edge_revisions), unless a change since may have touched any site (zones.sites_revision) or the zone's own
 * parts differ: then every site is built again.
 */
export async function buildNodeState(deps: StateDeps, nodeId: number, prior?: Promise<edge.DesiredState>): Promise<edge.DesiredState> {
  const { db } = deps;
  const zone = await stateZoneOfNode(db, nodeId);
  const ctx = { deps, zone };
  const [zoneParts, served, before] = await Promise.all([
    Promise.all(EDGE_FEATURES.flatMap((f) => (f.zone ? [f.zone(ctx)] : []))),
    sitesServedByNode(db, zone.id, nodeId),
    prior?.catch(() => undefined),
  ]);
  const frame: Frame = {
    revision: zone.revision,
    zone: Object.assign({}, ...zoneParts.map((p) => p.structure)),
    zoneData: Object.assign({}, ...zoneParts.map((p) => p.data)),
    node: Object.assign({}, ...zoneParts.map((p) => p.node)),
    acmeChallenges: zoneParts.flatMap((p) => p.acmeChallenges ?? []),
  };
  // what is the node's own (its settings, its ray id) the state cache makes each node's own: a build of another node of the same inputs serves
  const frameKey = JSON.stringify({ ...frame, revision: 0, node: {}, zoneData: { ...frame.zoneData, ray: undefined } });
  const base = before && made.get(before);
  const reusable = base && base.frame === frameKey && zone.sites_revision <= base.revision ? base : undefined;
  // a bump marks the sites before it moves the zone's revision (lib/revisions.ts): a build that read a revision
  // read every site changed up to it, and the sites changed since are marked later
  const stale = served.filter((s) => !reusable?.sites.has(s.id) || s.edge_revision > reusable.revision).map((s) => s.id);
  const built = new Map<number, SitePart>();
  for (const batch of await siteBatches(db, stale)) for (const state of await buildIsolated(ctx, frame, batch)) for (const part of sitePartsOf(state)) built.set(part.site.id, part);
  const staleIds = new Set(stale);
  const parts = served.flatMap((s) => (staleIds.has(s.id) ? built.get(s.id) : reusable?.sites.get(s.id)) ?? []);
  const state = assemble(deps, frame, parts);
  made.set(state, { revision: zone.revision, frame: frameKey, sites: new Map(parts.map((p) => [p.site.id, p])) });
  return state;
}

/** A site's share of a built state: its structure, its data, and the domain modules and certificates of its domains. */
type SitePart = { site: edge.SiteStructure; data?: edge.SiteData; domainModules: edge.DomainModules[]; certificates: edge.Certificate[] };
/** What a build was made of, for the next build of the same inputs: its zone's revision, its zone parts, its sites. */
type Made = { revision: number; frame: string; sites: Map<number, SitePart> };
const made = new WeakMap<edge.DesiredState, Made>();

/** A parsed batch's state cut by site. */
const sitePartsOf = (state: edge.DesiredState): SitePart[] => {
  const data = new Map(state.data.sites.map((d) => [d.siteId, d]));
  const modules = groupBy(state.data.domainModules, (m) => m.domainId);
  const certificates = new Map(state.data.certificates.map((c) => [c.id, c]));
  return state.structure.sites.map((site) => ({
    site,
    data: data.get(site.id),
    domainModules: site.domains.flatMap((d) => modules.get(d.id) ?? []),
    certificates: [...new Set(site.domains.map((d) => d.certificateId))].flatMap((id) => (id === null ? [] : (certificates.get(id) ?? []))),
  }));
};

/** The parts of a node's state that do not depend on its sites. */
type Frame = {
  revision: number;
  zone: ZonePart['structure'];
  zoneData: ZonePart['data'];
  node: ZonePart['node'];
  /** HTTP-01 answers of the orders running for the zone's domains. */
  acmeChallenges: edge.AcmeChallenge[];
};

/** The state of some of the zone's sites: what every edge feature adds to them, merged in the features' order. */
async function buildPart(ctx: StateContext, siteIds: number[]) {
  let sites = await sitesOf(ctx, siteIds);
  for (const feature of EDGE_FEATURES) {
    if (!feature.sites) continue;
    const fields = await feature.sites(ctx, sites);
    sites = sites.map((site) => ({ ...site, ...fields.get(site.id) }));
  }
  // what each feature adds to the finished sites is read by all of them at once, and merged in the features' order
  const none = Promise.resolve(undefined);
  const more = await Promise.all(
    EDGE_FEATURES.map((f) => Promise.all([f.siteData?.(ctx, sites) ?? none, f.certificates?.(ctx, sites) ?? none, f.domainModules?.(ctx, sites) ?? none])),
  );
  const data = new Map<number, SiteData>();
  const certificates: edge.Certificate[] = [];
  const domainModules: edge.DomainModules[] = [];
  for (const [siteData, certs, modules] of more) {
    for (const [siteId, fields] of siteData ?? []) data.set(siteId, { ...data.get(siteId), siteId, ...fields });
    certificates.push(...(certs ?? []));
    domainModules.push(...(modules ?? []));
  }
  return { sites, data: [...data.values()].sort((a, b) => a.siteId - b.siteId), certificates, domainModules };
}
type Part = Awaited<ReturnType<typeof buildPart>>;

const parseState = (frame: Frame, part: Part) =>
  edge.desiredState.parse({
    revision: frame.revision,
    structure: { zone: frame.zone, sites: part.sites },
    data: { sites: part.data, certificates: part.certificates, zone: frame.zoneData, domainModules: part.domainModules, acmeChallenges: frame.acmeChallenges },
    node: frame.node,
  });

/** Batches already checked, by what they were built from: a build checks only the batches that changed. */
const checked = new Map<string, edge.DesiredState>();
const CHECKED_MAX = 64;

/** A batch's state, parsed; the same inputs give the same parse, so a batch unchanged since a build is not parsed again. */
const stateOf = (frame: Frame, part: Part) => {
  // the revision moves at every change: a batch is kept without it, and the whole state gets it (assemble)
  const unnumbered = { ...frame, revision: 0 };
  const key = createHash('sha256').update(JSON.stringify([unnumbered, part])).digest('base64');
  let state = checked.get(key);
  if (state) checked.delete(key);
  else state = parseState(unnumbered, part);
  checked.set(key, state);
  while (checked.size > CHECKED_MAX) checked.delete(checked.keys().next().value!);
  return state;
};

/**
 * Builds and checks a batch of sites: the state of its sites alone, parsed. A failing batch is split until the
 * failing site stands alone and is left out.
 */
async function buildIsolated(ctx: StateContext, frame: Frame, siteIds: number[]): Promise<edge.DesiredState[]> {
  try {
    return [stateOf(frame, await buildPart(ctx, siteIds))];
  } catch (err) {
    if (siteIds.length === 1) {
      ctx.deps.log.error({ err, siteId: siteIds[0] }, 'site left out of the edge state: it cannot be built or carried');
      return [];
    }
    const half = Math.ceil(siteIds.length / 2);
    return [...(await buildIsolated(ctx, frame, siteIds.slice(0, half))), ...(await buildIsolated(ctx, frame, siteIds.slice(half)))];
  }
}

/**
 * The whole state from the sites' parts, each list in the order of its ids: what only the whole can tell
 * (edge.stateIssues) is checked, the rest was as each batch was parsed. A site that conflicts with another (a
 * shared cache directory, a port) is left out, logged.
 */
function assemble(deps: StateDeps, frame: Frame, parts: SitePart[]): edge.DesiredState {
  const first = stateOf(frame, { sites: [], data: [], certificates: [], domainModules: [] });
  const certificates = [...new Map(parts.flatMap((p) => p.certificates).map((c) => [c.id, c])).values()].sort((a, b) => a.id - b.id);
  let sites = parts.map((p) => p.site);
  let data = parts.flatMap((p) => p.data ?? []);
  let domainModules = parts.flatMap((p) => p.domainModules).sort((a, b) => a.domainId - b.domainId);
  for (;;) {
    const state = { ...first, revision: frame.revision, structure: { ...first.structure, sites }, data: { ...first.data, sites: data, certificates, domainModules } };
    const issues = edge.stateIssues(state);
    if (!issues.length) return state;
    const atSite = issues.filter((i) => i.path[0] === 'structure' && i.path[1] === 'sites').map((i) => sites[Number(i.path[2])]);
    const bad = new Set(atSite.flatMap((s) => (s ? [s.id] : [])));
    if (!bad.size) throw new Error(`the zone's edge state is not valid: ${JSON.stringify(issues)}`);
    deps.log.error({ siteIds: [...bad], issues }, 'sites left out of the edge state: they conflict with other sites of the zone');
    const domainIds = new Set(sites.filter((s) => bad.has(s.id)).flatMap((s) => s.domains.map((d) => d.id)));
    sites = sites.filter((s) => !bad.has(s.id));
    data = data.filter((d) => !bad.has(d.siteId));
    domainModules = domainModules.filter((m) => !domainIds.has(m.domainId));
  }
}

/** Ids per SQL statement: far under SQLite's and PostgreSQL's variable limits. */
const CHUNK = 500;
/** Domains per batch of sites: what one site may hold, so a batch's id lists stay bounded. */
const BATCH_DOMAINS = ITEM_LIST_MAX;

/** The sites in batches of at most CHUNK sites and BATCH_DOMAINS domains (a bigger site alone). */
async function siteBatches(db: Db, siteIds: number[]) {
  const counts = new Map<number, number>();
  for (let i = 0; i < siteIds.length; i += CHUNK) {
    const rows = await domainCountsOfSites(db, siteIds.slice(i, i + CHUNK));
    for (const r of rows) counts.set(r.site_id, toCount(r.n as number));
  }
  const batches: number[][] = [];
  let batch: number[] = [];
  let domains = 0;
  for (const id of siteIds) {
    const n = counts.get(id) ?? 0;
    if (batch.length && (batch.length >= CHUNK || domains + n > BATCH_DOMAINS)) {
      batches.push(batch);
      batch = [];
      domains = 0;
    }
    batch.push(id);
    domains += n;
  }
  if (batch.length) batches.push(batch);
  return batches;
}
