import { isIP } from 'node:net';
import type { edge } from '@edgekeep/contract';
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
  origins: edge.Origin[];
  /** null: weighted round robin; a key (nginx variables) hashed to pick an origin, '' for the client address. */
  hash: string | null;
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
};

/**
 * Why a domain needs a server block of its own: settings that only nginx directives carry (per-location cache
 * validity, ModSecurity rules files, gzip, error_page, limit_rate maps, a cache key or zone of the site, a body
 * size, least_conn, no keepalive) or origins named by host name, which nginx resolves at load time. Empty: the
 * domain goes live.
 */
export const renderedReasons = ({ site, domain }: { site: edge.SiteStructure; domain: edge.Domain }) => {
  const { options } = site;
  const reasons: [boolean, string][] = [
    [site.cacheRules.length > 0, 'cache rules'],
    [site.gzip, 'gzip'],
    [site.errorPages.some((p) => p.status >= 300 && p.status <= 599), 'error pages'],
    [options.clientMaxBodySize !== null, 'body size'],
    [options.rateRules.length > 0, 'rate rules'],
    [options.webp, 'webp'],
    [options.cache.ignoreQuery || options.cache.directory !== null, 'cache key or directory'],
    [domain.waf !== null, 'managed WAF'],
    [domain.balance === 'least_conn', 'least_conn'],
    [domain.keepalive === 0, 'no keepalive'],
    [domain.origins.some((o) => isIP(o.host) === 0), 'origin host name'],
  ];
  return reasons.filter(([on]) => on).map(([, why]) => why);
};

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
    portMap: domain.portMap.enabled ? Object.fromEntries(domain.portMap.rules.map((r) => [String(r.listen), r.originPort])) : null,
    https,
    redirect: https && domain.forceSSL ? { code: zone.forceSSLRedirectCode, port: ports.httpsPorts[0] } : null,
    hsts: https && (hsts.enabled || domain.hsts) ? hstsValue(hsts) : null,
    ...ports,
  };
};

/**
 * The desired state split in two: what nginx renders (the zone, the sites' L4 ports and the domains that need a
 * server block) and the live domains. A site left with no rendered domain and no L4 port is not rendered at all,
 * so that adding or changing a live domain or site never changes nginx's configuration. A live name that a
 * rendered wildcard covers stays rendered too: nginx would match the wildcard's server first.
 */
const split = (state: edge.DesiredState) => {
  const { zone } = state.structure;
  const needsBlock = (site: edge.SiteStructure, d: edge.Domain) => renderedReasons({ site, domain: d }).length > 0;
  const wildcards = state.structure.sites.flatMap((s) => s.domains.filter((d) => d.name.startsWith('*.') && needsBlock(s, d)).map((d) => d.name));
  const rendered = (site: edge.SiteStructure, d: edge.Domain) => needsBlock(site, d) || coveredBy(d.name, wildcards);
  const live = state.structure.sites.flatMap((site) => site.domains.filter((d) => !rendered(site, d)).map((domain) => liveDomain({ site, domain, zone })));
  const sites = state.structure.sites
    .map((site) => ({ ...site, domains: site.domains.filter((d) => rendered(site, d)) }))
    .filter((site) => site.domains.length > 0 || site.l4Ports.length > 0);
  return { structure: { zone, sites }, live };
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
