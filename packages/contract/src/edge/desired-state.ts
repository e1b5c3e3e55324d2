import { z } from 'zod';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import {
  ERROR_PAGE_STATUSES,
  UPSTREAM_DEFAULT_PORT,
  UPSTREAM_WEIGHT_MAX,
  UPSTREAM_WEIGHT_MIN,
  isL4PortAllowed,
} from './constants';
import { domainsClean } from './domain-index';
import * as domainOptions from './domain-options';
import { siteOptions } from './site-options';
import { domainModules } from './site-modules';
import { wafSetting } from './waf';
import { siteWaf } from './acl';
import { firewallSiteData, ipList, l4Firewall } from './firewall-data';
import { nodeSettings } from './agent-protocol';
import { zoneData } from './zone-data';
import { errorPage } from './error-page';

export * from './constants';
export { ipEntry, ipKey } from './ip-entry';
export * from './site-options';
export * from './site-modules';
export * from './acl';
export * from './waf';
export * from './firewall-data';
export * from './zone-data';
export * from './error-page';

const id = z.number().int().positive();
const port = z.number().int().min(1).max(65535);

/** Spec §5: lowercase ASCII (punycode), optional leading wildcard, a top-level label of 2+ letters or punycode. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine(
    (v) => {
      const labels = v.split('.');
      if (labels.length < 2) return false;
      const tld = labels[labels.length - 1];
      if (!/^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return false;
      return labels.slice(0, -1).every((l, i) => (i === 0 && l === '*') || /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l));
    },
    { message: 'a valid lowercase ASCII hostname' },
  );

const hostname = z.union([z.ipv4(), z.ipv6(), domainName]);
const uniquePorts = (ports: number[]) => new Set(ports).size === ports.length;

/** An origin (spec: Upstream): where a domain or an L4 port forwards to. */
export const origin = z.object({
  host: hostname,
  port: port.default(UPSTREAM_DEFAULT_PORT),
  weight: z.number().int().min(UPSTREAM_WEIGHT_MIN).max(UPSTREAM_WEIGHT_MAX).default(UPSTREAM_WEIGHT_MIN),
  backup: z.boolean().default(false),
  maxFails: z.number().int().min(0).max(1000).default(1),
  failTimeout: z.number().int().min(1).max(3600).default(10),
});
const origins = z
  .array(origin)
  .min(1)
  .max(100)
  .refine((list) => list.length === 0 || list.some((o) => !o.backup), { message: 'at least one origin must not be a backup' });

export const domain = z.object({
  id,
  name: z.union([z.ipv4(), domainName]),
  /** How the edge talks to the origins; follow uses the scheme the client used. */
  originProtocol: z.enum(['http', 'https', 'follow']).default('http'),
  forceSSL: z.boolean().default(false),
  hsts: z.boolean().default(false),
  /** A certificate of data.certificates; without one the domain is served over HTTP only. */
  certificateId: id.nullable().default(null),
  origins,
  balance: domainOptions.balance,
  hashKey: domainOptions.hashKey,
  keepalive: domainOptions.keepalive,
  portMap: domainOptions.portMap,
  /** The managed WAF rule set (ModSecurity + OWASP CRS); null leaves it off. */
  waf: wafSetting.nullable().default(null),
});

const fileType = z.string().regex(/^[a-z0-9]{1,10}$/, 'a file extension without the dot');
const urlPrefix = z
  .string()
  .max(TEXT_FIELD_MAX)
  .regex(/^https?:\/\/[^\s/*?]+\/([^\s*?]*\/)?$/, 'begins with http:// or https:// and ends with /');

/** Spec: cache rule. seconds 0 means do not cache; force caches for `seconds` whatever the origin says. */
export const cacheRule = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('fileTypes'),
    values: z.array(fileType).min(1).max(100),
    seconds: z.number().int().min(0).max(31_536_000),
    mode: z.enum(['follow', 'force']).default('follow'),
  }),
  z.object({
    type: z.literal('url'),
    values: z.array(urlPrefix).min(1).max(100),
    seconds: z.number().int().min(0).max(31_536_000),
    mode: z.enum(['follow', 'force']).default('follow'),
  }),
]);

export const l4Port = z.object({
  port: port.refine(isL4PortAllowed, { message: 'a port from 1000 to 65000 that is not reserved' }),
  origins,
});

export const siteStructure = z.object({
  id,
  name: z.string().min(1).max(TEXT_FIELD_MAX),
  domains: z.array(domain).max(ITEM_LIST_MAX),
  cacheRules: z.array(cacheRule).max(100).default([]),
  gzip: z.boolean().default(false),
  errorPages: z.array(errorPage).max(ERROR_PAGE_STATUSES.length).default([]),
  l4Ports: z.array(l4Port).max(1000).default([]),
  options: siteOptions.prefault({}),
  l4Firewall,
});

export const zoneStructure = z.object({
  httpPorts: z.array(port).min(1).max(20).refine(uniquePorts, { message: 'duplicate port' }),
  httpsPorts: z.array(port).min(1).max(20).refine(uniquePorts, { message: 'duplicate port' }),
  nginx: z
    .object({
      workerProcesses: z.union([z.literal('auto'), z.number().int().min(1).max(256)]).default('auto'),
      workerConnections: z.number().int().min(64).max(1_000_000).default(4096),
      /** MB; 0 turns the body size check off. */
      clientMaxBodySize: z.number().int().min(0).max(102_400).default(100),
      keepaliveTimeout: z.number().int().min(0).max(3600).default(65),
      /** MB of disk for the proxy cache. */
      cacheSize: z.number().int().min(16).max(10_000_000).default(10_240),
      /** Minutes a cached file nobody asks for stays. */
      cacheTime: z.number().int().min(1).max(525_600).default(10_080),
      /** Layer-4 servers: seconds to reach an origin, seconds a connection may idle. */
      streamConnectTimeout: z.number().int().min(1).max(600).default(10),
      streamTimeout: z.number().int().min(1).max(86_400).default(600),
    })
    .prefault({}),
  /** Proxy-pass to the origins of every domain: seconds, and buffering of their answers. */
  proxy: z
    .object({
      connectTimeout: z.number().int().min(1).max(600).default(60),
      sendTimeout: z.number().int().min(1).max(3600).default(60),
      readTimeout: z.number().int().min(1).max(3600).default(60),
      keepaliveTimeout: z.number().int().min(1).max(3600).default(60),
      buffering: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * The client's own nginx directives (simple directives, checked by the API): the main context, the http and
   * stream blocks, and every site's server blocks. A node whose `nginx -t` refuses them keeps its last good config.
   */
  directives: z
    .object({
      main: z.string().max(8192).default(''),
      http: z.string().max(8192).default(''),
      stream: z.string().max(8192).default(''),
      server: z.string().max(8192).default(''),
    })
    .prefault({}),
  /** HTTP/2 on the HTTPS ports. */
  http2: z.boolean().default(true),
  /** The status of a domain's force-SSL redirect. */
  forceSSLRedirectCode: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]).default(301),
});

export const siteData = z.object({
  siteId: id,
  blacklist: ipList.default([]),
  /** Whitelisted addresses skip every block, the blacklist included. */
  whitelist: ipList.default([]),
  /** The site used up its month's traffic allowance and its product says to stop: every request gets 929. Absent: served. */
  trafficLimited: z.boolean().optional(),
  /**
   * The site's limitations (its own, else its product's; absent: unlimited): bandwidth in Mbps shared by the
   * site's requests in flight on the node, connections its requests in flight at once (over it: 503).
   */
  limits: z.object({ bandwidth: z.number().int().min(1).optional(), connections: z.number().int().min(1).optional() }).optional(),
  waf: siteWaf.optional(),
  ...firewallSiteData,
});

export const certificate = z.object({
  id,
  /** PEM: the leaf certificate first, then its intermediates. */
  chain: z.string().includes('-----BEGIN CERTIFICATE-----').max(65_536),
  key: z.string().includes('PRIVATE KEY-----').max(16_384),
});

/** An ACME HTTP-01 answer the node serves at http://<name>/.well-known/acme-challenge/<token> while an order runs. */
export const acmeChallenge = z.object({
  name: z.string().min(1).max(253),
  token: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/),
  keyAuthorization: z.string().regex(/^[A-Za-z0-9_.-]{1,512}$/),
});

/** What nginx must know at load time: changing it means render, nginx -t and reload. */
export const structure = z.object({ zone: zoneStructure, sites: z.array(siteStructure) });
/** What the agent pushes into Lua shared dictionaries, no reload. */
export const data = z.object({
  sites: z.array(siteData).default([]),
  certificates: z.array(certificate).default([]),
  /** Per-domain traffic modules: headers, redirects, CORS, referer and header rules. */
  domainModules: z.array(domainModules).default([]),
  zone: zoneData,
  acmeChallenges: z.array(acmeChallenge).default([]),
});

export const desiredState = z
  .object({
    /** Bumped by every change of the node's configuration; agents ask for anything newer. */
    revision: z.number().int().min(0),
    /** This build of the state, as the API names it: a node that holds it asks for the next one as a delta (`?base=`). */
    etag: z.string().max(64).optional(),
    structure,
    data: data.prefault({}),
    /** This node's own monitor thresholds and Geneva setting. */
    node: nodeSettings.optional(),
  })
  .superRefine((state, ctx) => {
    for (const issue of stateIssues(state)) ctx.addIssue({ code: 'custom', ...issue });
  });

type CheckedState = { structure: z.infer<typeof structure>; data: { certificates: { id: number }[] } };

/**
 * What no part of a state can tell alone: a port both HTTP and HTTPS, a domain twice, an unknown certificate, a
 * cache directory inside another site's, an L4 port taken. The whole state's check runs it; an agent that applied
 * a delta runs it alone, its changed parts being checked by their own schemas.
 */
export function stateIssues(state: CheckedState) {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const { zone, sites } = state.structure;
  const webPorts = new Set([...zone.httpPorts, ...zone.httpsPorts]);
  if (zone.httpsPorts.some((p) => zone.httpPorts.includes(p))) issues.push({ path: ['structure', 'zone', 'httpsPorts'], message: 'a port is both HTTP and HTTPS' });
  const certIds = new Set(state.data.certificates.map((c) => c.id));
  // where a name is twice or a certificate unknown is looked for only when the index says there is one
  const domainsChecked = domainsClean(sites.map((site) => site.domains), certIds);
  const seenDomains = new Set<string>();
  const seenL4 = new Set<number>();
  const cacheDirs: string[] = [];
  sites.forEach((site, s) => {
    const dir = site.options.cache.directory;
    if (dir !== null) {
      if (cacheDirs.some((other) => `${dir}/`.startsWith(`${other}/`) || `${other}/`.startsWith(`${dir}/`))) {
        issues.push({ path: ['structure', 'sites', s, 'options', 'cache', 'directory'], message: 'a cache directory of another site, or inside one' });
      }
      cacheDirs.push(dir);
    }
    if (!domainsChecked) {
      site.domains.forEach((d, i) => {
        if (seenDomains.has(d.name)) issues.push({ path: ['structure', 'sites', s, 'domains', i, 'name'], message: 'duplicate domain' });
        seenDomains.add(d.name);
        if (d.certificateId !== null && !certIds.has(d.certificateId)) issues.push({ path: ['structure', 'sites', s, 'domains', i, 'certificateId'], message: 'unknown certificate' });
      });
    }
    site.l4Ports.forEach((l4, i) => {
      if (seenL4.has(l4.port) || webPorts.has(l4.port)) issues.push({ path: ['structure', 'sites', s, 'l4Ports', i, 'port'], message: 'port already in use' });
      seenL4.add(l4.port);
    });
  });
  return issues;
}

export type Origin = z.infer<typeof origin>;
export type Domain = z.infer<typeof domain>;
export type CacheRule = z.infer<typeof cacheRule>;
export type ErrorPage = z.infer<typeof errorPage>;
export type L4Port = z.infer<typeof l4Port>;
export type SiteStructure = z.infer<typeof siteStructure>;
export type ZoneStructure = z.infer<typeof zoneStructure>;
export type SiteData = z.infer<typeof siteData>;
export type Certificate = z.infer<typeof certificate>;
export type AcmeChallenge = z.infer<typeof acmeChallenge>;
export type DesiredState = z.infer<typeof desiredState>;
/** What the API sends: defaults may be left out. */
export type DesiredStateInput = z.input<typeof desiredState>;
