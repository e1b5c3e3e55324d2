import { perObject, type edge } from '@edgekeep/contract';
import { liveCacheRules, policyName, type CachePolicy } from './cache-locations';
import { nginxStatus } from './http-site';
import { siteCacheZone } from './site-cache';
import { hstsValue, sitePorts } from './site-options';

/**
 * A domain the node serves from pushed data, no server block of its own: the zone's fixed servers pick it by
 * Host in the Lua runtime (edgekeep/live.lua) and balance to its origins from this document.
 */
export type LiveDomain = {
  name: string;
  site: number;
  domain: number;
  /** How the edge reaches the origins; follow uses the client's scheme. */
  scheme: edge.Domain['originProtocol'];
  /** By address: the agent replaces an origin named by host name with its addresses (render/live-origins.ts). */
  origins: edge.Origin[];
  /** null: weighted round robin; a key (nginx variables) hashed to pick an origin, '' for the client address. */
  hash: string | null;
  /** Least connections: the origin with the fewest of this worker's requests in flight for its weight (round robin among equals). */
  leastConn: boolean;
  /** With port mapping on: the origin port of each edge port (an edge port not listed keeps its own number). */
  portMap: Record<string, number> | null;
  /** The domain has a certificate: it answers on the HTTPS ports. */
  https: boolean;
  /** HTTP answers redirect to HTTPS: the status and the HTTPS port. */
  redirect: { code: number; port: number } | null;
  /** The Strict-Transport-Security value of HTTPS answers. */
  hsts: string | null;
  httpPorts: number[];
  httpsPorts: number[];
  /** The site's rate rules, longest prefix first: answers whose `$host$uri` starts with `prefix` are sent at `rate` bytes a second. */
  rates: { prefix: string; rate: number }[];
  /** Bytes a request body may have, below the zone's limit that nginx holds every live domain to; null: the zone's. */
  bodyLimit: number | null;
  /** Cache on the path alone: the query is left out of the cache key. */
  cacheIgnoreQuery: boolean;
  /** The cache zone of the site's own directory (declared in nginx.conf); null: the node's shared cache. */
  cacheZone: string | null;
  /** Images are cached apart (`#webp` after the key) for clients that accept image/webp, and vary on Accept. */
  webp: boolean;
  /** Text answers are compressed for clients that accept gzip; without it the runtime hides Accept-Encoding from nginx's gzip filter. */
  gzip: boolean;
  /** The site has error pages (statuses 300–599): its requests go to the fixed servers' location that puts them in place (render/live-server.ts). */
  errorPages: boolean;
  /** Idle connections to the origins are kept for the next requests (the domain's keepalive is not 0); else each request's is closed (render/live-server.ts). */
  keepalive: boolean;
  /** The site's cache rules for this host, by the name of the fixed servers' location of each policy (render/live-server.ts). */
  cache: ReturnType<typeof liveCacheRules>;
};

const MIB = 1024 * 1024;

/**
 * The body limit (bytes) the Lua runtime holds a live domain to, below the zone's `client_max_body_size` that nginx
 * holds the fixed servers to (and reads a chunked body no further than); null: the zone's limit is the site's.
 * undefined: the site's limit is above the zone's or off where the zone has one, which only a server of its own gives.
 */
const liveBodyLimit = ({ site, zone }: { site: edge.SiteStructure; zone: edge.ZoneStructure }) => {
  const own = site.options.clientMaxBodySize;
  const zoneLimit = zone.nginx.clientMaxBodySize;
  if (own === null || own === zoneLimit) return null;
  return own > 0 && (zoneLimit === 0 || own < zoneLimit) ? own * MIB : undefined;
};

/**
 * Why a domain needs a server block of its own: settings that only nginx directives carry (ModSecurity rules files,
 * a body size above the zone's, which nginx holds a chunked body to as it reads it). Empty: the domain goes live (its
 * origins named by host name are resolved by the agent, render/live-origins.ts).
 */
export const renderedReasons = ({ site, domain, zone }: { site: edge.SiteStructure; domain: edge.Domain; zone: edge.ZoneStructure }) => {
  const reasons: [boolean, string][] = [
    [liveBodyLimit({ site, zone }) === undefined, 'body size above the zone'],
    [domain.waf !== null, 'managed WAF'],
  ];
  return reasons.filter(([on]) => on).map(([, why]) => why);
};

/**
 * Whether the zone's own http or server directives turn gzip on: they compress every site on a server block, and so
 * every live domain too (the runtime hides Accept-Encoding only from a live domain that does not compress).
 */
const zoneCompresses = perObject((zone: edge.ZoneStructure) => /(^|[;{\s])gzip\s+on\s*;/.test(`${zone.directives.http}\n${zone.directives.server}`));

/** nginx's wildcard match: `*.example.com` takes any name that ends in `.example.com`. */
const coveredBy = (name: string, wildcards: string[]) => wildcards.some((w) => name.endsWith(w.slice(1)));

const liveDomain = ({ site, domain, zone }: { site: edge.SiteStructure; domain: edge.Domain; zone: edge.ZoneStructure }): LiveDomain => {
  const ports = sitePorts({ site, zone });
  const https = domain.certificateId !== null;
  const { hsts } = site.options;
  return {
    name: domain.name,
    site: site.id,
    domain: domain.id,
    scheme: domain.originProtocol,
    // nginx's hash balancing takes no backup servers: a hashed domain leaves its backups out
    origins: domain.balance === 'ip_hash' ? domain.origins.filter((o) => !o.backup) : domain.origins,
    hash: domain.balance === 'ip_hash' ? domain.hashKey : null,
    leastConn: domain.balance === 'least_conn',
    portMap: domain.portMap.enabled ? Object.fromEntries(domain.portMap.rules.map((r) => [String(r.listen), r.originPort])) : null,
    https,
    redirect: https && domain.forceSSL ? { code: zone.forceSSLRedirectCode, port: ports.httpsPorts[0] } : null,
    hsts: https && (hsts.enabled || domain.hsts) ? hstsValue(hsts) : null,
    ...ports,
    rates: [...site.options.rateRules]
      .sort((a, b) => b.url.length - a.url.length)
      .map((r) => ({ prefix: r.url.replace(/^https?:\/\//, ''), rate: r.rate * 1024 })),
    bodyLimit: liveBodyLimit({ site, zone }) ?? null,
    cacheIgnoreQuery: site.options.cache.ignoreQuery,
    cacheZone: site.options.cache.directory === null ? null : siteCacheZone({ site }),
    webp: site.options.webp,
    gzip: site.gzip || zoneCompresses(zone),
    errorPages: site.errorPages.some((p) => nginxStatus(p.status)),
    keepalive: domain.keepalive !== 0,
    cache: liveCacheRules({ domain: domain.name, rules: site.cacheRules }),
  };
};

/** A site's wildcard names that need a server block: they keep the live names they cover rendered, whatever their site. */
const wildcardsOf = perObject((site: edge.SiteStructure) =>
  perObject((zone: edge.ZoneStructure) =>
    site.domains.filter((d) => d.name.startsWith('*.') && renderedReasons({ site, domain: d, zone }).length > 0).map((d) => d.name),
  ),
);

/** The cache policies a site's live domains use, by name: the fixed servers have a location for each. */
const usedPolicies = (site: edge.SiteStructure, live: LiveDomain[]): [string, CachePolicy][] => {
  const used = new Set(live.flatMap(({ cache: c }) => (c ? [...c.prefixes, ...c.fileTypes].map((r) => r.policy).concat(c.root ?? []) : [])));
  return site.cacheRules.flatMap((r) => (used.has(policyName(r)) ? [[policyName(r), { seconds: r.seconds, mode: r.mode }]] : []));
};

type SiteSplit = { rendered?: edge.SiteStructure; live: LiveDomain[]; policies: [string, CachePolicy][] };
/** Each site's split, kept with what it was worked out for (the zone and the wildcards): a site kept from state to state is not split again. */
const siteSplits = new WeakMap<edge.SiteStructure, { context: string; split: SiteSplit }>();

const splitSite = ({ site, zone, wildcards, context }: { site: edge.SiteStructure; zone: edge.ZoneStructure; wildcards: string[]; context: string }): SiteSplit => {
  const known = siteSplits.get(site);
  if (known?.context === context) return known.split;
  const rendered = (d: edge.Domain) => renderedReasons({ site, domain: d, zone }).length > 0 || coveredBy(d.name, wildcards);
  const domains = site.domains.filter(rendered);
  const live = site.domains.filter((d) => !rendered(d)).map((domain) => liveDomain({ site, domain, zone }));
  const split = { rendered: domains.length > 0 || site.l4Ports.length > 0 ? { ...site, domains } : undefined, live, policies: usedPolicies(site, live) };
  siteSplits.set(site, { context, split });
  return split;
};

/**
 * The desired state split in two: what nginx renders (the zone, the sites' L4 ports and the domains that need a
 * server block) and the live domains. A site left with no rendered domain and no L4 port is not rendered at all,
 * so that adding or changing a live domain or site never changes nginx's configuration. A live name that a
 * rendered wildcard covers stays rendered too: nginx would match the wildcard's server first.
 */
const split = (state: edge.DesiredState) => {
  const { zone } = state.structure;
  const wildcards = state.structure.sites.flatMap((site) => wildcardsOf(site)(zone));
  const context = JSON.stringify([zone, wildcards]);
  const parts = state.structure.sites.map((site) => splitSite({ site, zone, wildcards, context }));
  // `lives`: each site's live domains, the same array while the site stays the same object; `policies`: those their
  // cache rules use, by name in name order, so that the fixed servers render the same for the same set
  return {
    structure: { zone, sites: parts.flatMap((p) => p.rendered ?? []) },
    live: ([] as LiveDomain[]).concat(...parts.map((p) => p.live)),
    lives: parts.map((p) => p.live),
    policies: new Map(parts.flatMap((p) => p.policies).sort(([a], [b]) => a.localeCompare(b))),
  };
};

const splits = new WeakMap<edge.DesiredState, ReturnType<typeof split>>();
/** The split of a state, worked out once: the applier's reload check and the pushed document both take it. */
export const splitLive = ({ state }: { state: edge.DesiredState }) => {
  let done = splits.get(state);
  if (!done) {
    done = split(state);
    splits.set(state, done);
  }
  return done;
};
