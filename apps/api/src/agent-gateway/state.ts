import { edge, ITEM_LIST_MAX } from '@edgekeep/contract';
import { ZodError } from 'zod';
import { toCount, type Db } from '../db';
import type { AppDeps } from '../deps';
import { decrypt } from '../lib/crypto';
import { optionsOfSites } from '../modules/site-settings/options';
import { firewallDataOf, withL4Firewall } from '../modules/firewall/edge-data';
import { withTrafficLimits } from '../modules/traffic/state';
import { withSiteLimits } from '../modules/site-actions/edge-limits';
import { readZoneSettings, type ZoneSettings } from '../modules/zones/defaults';
import { domainOptionsOf } from '../modules/domains/state';
import { l4PortsOfSites } from '../modules/ports/rows';
import { domainModulesOf, wafByDomain } from '../modules/site-modules/edge-state';
import { withWaf } from '../modules/waf-acl/edge-data';
import { genevaOf, monitorOf } from '../modules/resolutions/health';
import { defaultPagesOfZone, withDefaultPages } from '../modules/error-settings/repo';
import { edgeDirectivesOfZone } from '../modules/nginx-settings/repo';
import { challengesOfZone } from '../modules/acme/repo';
import { edgeSystemSettings } from '../modules/system-settings/edge-state';

type StateDeps = Pick<AppDeps, 'db' | 'secrets' | 'log'>;

/**
 * Every enabled domain, with its enabled origins, of the sites in normal status on products of the zone; a site
 * forced onto its product's backup group only on the nodes of that group.
 */
const servedSites = (db: Db, zoneId: number, nodeId: number) =>
  db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
    .where((eb) =>
      eb.or([
        eb('sites.force_backup', '=', 0),
        eb('products.backup_group_id', 'in', eb.selectFrom('node_group_members').select('group_id').where('node_id', '=', nodeId)),
      ]),
    );

async function sitesOfZone(db: Db, ids: number[]): Promise<edge.DesiredStateInput['structure']['sites']> {
  const sites = await db.selectFrom('sites').select(['id', 'name', 'gzip']).where('id', 'in', ids).orderBy('id').execute();
  if (!sites.length) return [];
  const domains = await db
    .selectFrom('domains')
    .selectAll()
    .where('site_id', 'in', sites.map((s) => s.id))
    .where('status', '=', 1)
    .orderBy('id')
    .execute();
  const siteIds = sites.map((s) => s.id);
  const rules = await db.selectFrom('site_cache_rules').select(['site_id', 'rule']).where('site_id', 'in', siteIds).orderBy('id').execute();
  const pages = await db.selectFrom('site_error_pages').select(['site_id', 'status', 'type', 'body']).where('site_id', 'in', siteIds).orderBy('status').execute();
  const options = await optionsOfSites(db, siteIds);
  const wafs = await wafByDomain(db, domains.map((d) => d.id));
  const origins = domains.length
    ? await db.selectFrom('upstreams').selectAll().where('domain_id', 'in', domains.map((d) => d.id)).where('enabled', '=', 1).orderBy('id').execute()
    : [];
  const l4 = await l4PortsOfSites(db, siteIds);
  return sites.map((site) => ({
    l4Ports: l4.get(site.id) ?? [],
    id: site.id,
    name: site.name,
    gzip: site.gzip === 1,
    cacheRules: rules.filter((r) => r.site_id === site.id).map((r) => JSON.parse(r.rule) as edge.CacheRule),
    errorPages: pages.filter((p) => p.site_id === site.id).map(({ status, type, body }) => ({ status, type, body }) as edge.ErrorPage),
    options: options.get(site.id),
    domains: domains
      .filter((d) => d.site_id === site.id)
      .map((d) => ({
        id: d.id,
        name: d.name,
        originProtocol: d.protocol,
        forceSSL: d.force_ssl === 1,
        hsts: d.hsts === 1,
        certificateId: d.certificate_id,
        ...domainOptionsOf(d, origins),
        waf: wafs.get(d.id) ?? null,
        origins: origins
          .filter((o) => o.domain_id === d.id)
          .map((o) => ({ host: o.host, port: o.port, weight: o.weight, backup: o.backup === 1, maxFails: o.max_fails, failTimeout: o.fail_timeout })),
      }))
      .filter((d) => d.origins.length > 0),
  }));
}

/**
 * The one function that builds a node's desired state from the database: its zone's ports and nginx settings,
 * every site served in the zone with its domains, origins, cache rules, compression and error pages, and the
 * certificates its domains serve (keys decrypted for the node), and the sites' firewall, WAF and module data.
 * Sites are built in batches of bounded size; a site that cannot be built or carried is logged and left out, so
 * that one tenant's site never stops the zone's other sites from reaching the edge.
 */
export async function buildNodeState(deps: StateDeps, nodeId: number): Promise<edge.DesiredState> {
  const { db } = deps;
  const zone = await db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .select(['zones.id', 'zones.settings', 'zones.revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const settings = readZoneSettings(zone.settings);
  const errorPages = await defaultPagesOfZone(db, zone.id);
  const frame: Frame = {
    revision: zone.revision,
    zone: { ...zoneStructure(settings, zone.cache_capacity), directives: await edgeDirectivesOfZone(db, zone.id) },
    errorPages,
    zoneData: { ...zoneData(settings), ...(await edgeSystemSettings(db, zone.id, nodeId)), noDomainPage: errorPages.find((p) => p.status === 903) ?? null },
    node: { monitor: monitorOf(zone), geneva: genevaOf(zone) },
    acmeChallenges: (await challengesOfZone(db, zone.id)).map((c) => ({ name: c.name, token: c.token, keyAuthorization: c.key_authorization })),
  };
  const sites = await servedSites(db, zone.id, nodeId).select('sites.id').orderBy('sites.id').execute();
  const parts: Part[] = [];
  for (const batch of await siteBatches(db, sites.map((x) => x.id))) parts.push(...(await buildIsolated(deps, frame, batch)));
  return assemble(deps, frame, parts);
}

/** The parts of a node's state that do not depend on its sites. */
type Frame = {
  revision: number;
  zone: edge.DesiredStateInput['structure']['zone'];
  zoneData: edge.ZoneData;
  node: edge.DesiredStateInput['node'];
  /** The zone owner's default error pages: a site gets those of the statuses it has none for. */
  errorPages: edge.ErrorPage[];
  /** HTTP-01 answers of the orders running for the zone's domains. */
  acmeChallenges: edge.AcmeChallenge[];
};

/** The state of some of the zone's sites. */
async function buildPart(deps: StateDeps, siteIds: number[]) {
  const { db } = deps;
  const sites = await withL4Firewall(db, await sitesOfZone(db, siteIds));
  return {
    sites,
    data: await withWaf(db, sites, await withSiteLimits(db, sites, await withTrafficLimits(db, sites, await firewallDataOf(db, sites)))),
    certificates: await certificatesOf(deps, sites),
    domainModules: await domainModulesOf(deps, sites.flatMap((s) => s.domains.map((d) => ({ id: d.id, siteId: s.id })))),
  };
}
type Part = Awaited<ReturnType<typeof buildPart>>;

const stateOf = (frame: Frame, part: Part) =>
  edge.desiredState.parse({
    revision: frame.revision,
    structure: { zone: frame.zone, sites: part.sites },
    data: { sites: part.data, certificates: part.certificates, zone: frame.zoneData, domainModules: part.domainModules, acmeChallenges: frame.acmeChallenges },
    node: frame.node,
  });

/** Builds and checks a batch of sites; a failing batch is split until the failing site stands alone and is left out. */
async function buildIsolated(deps: StateDeps, frame: Frame, siteIds: number[]): Promise<Part[]> {
  try {
    const built = await buildPart(deps, siteIds);
    const part = { ...built, sites: built.sites.map((site) => ({ ...site, errorPages: withDefaultPages(site.errorPages ?? [], frame.errorPages) })) };
    stateOf(frame, part);
    return [part];
  } catch (err) {
    if (siteIds.length === 1) {
      deps.log.error({ err, siteId: siteIds[0] }, 'site left out of the edge state: it cannot be built or carried');
      return [];
    }
    const half = Math.ceil(siteIds.length / 2);
    return [...(await buildIsolated(deps, frame, siteIds.slice(0, half))), ...(await buildIsolated(deps, frame, siteIds.slice(half)))];
  }
}

/** The whole state; a site that conflicts with another (a shared cache directory, a port) is left out, logged. */
function assemble(deps: StateDeps, frame: Frame, parts: Part[]): edge.DesiredState {
  let part: Part = {
    sites: parts.flatMap((p) => p.sites),
    data: parts.flatMap((p) => p.data),
    certificates: [...new Map(parts.flatMap((p) => p.certificates).map((c) => [c.id, c])).values()],
    domainModules: parts.flatMap((p) => p.domainModules),
  };
  for (;;) {
    try {
      return stateOf(frame, part);
    } catch (err) {
      const issues = err instanceof ZodError ? err.issues : [];
      const atSite = issues.filter((i) => i.path[0] === 'structure' && i.path[1] === 'sites').map((i) => part.sites[Number(i.path[2])]);
      const bad = new Set(atSite.flatMap((s) => (s ? [s.id] : [])));
      if (!bad.size) throw err;
      deps.log.error({ siteIds: [...bad], issues }, 'sites left out of the edge state: they conflict with other sites of the zone');
      const domainIds = new Set(part.sites.filter((s) => bad.has(s.id)).flatMap((s) => s.domains.map((d) => d.id)));
      part = {
        ...part,
        sites: part.sites.filter((s) => !bad.has(s.id)),
        data: part.data.filter((d) => !bad.has(d.siteId)),
        domainModules: part.domainModules.filter((m) => !domainIds.has(m.domainId)),
      };
    }
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
    const rows = await db
      .selectFrom('domains')
      .select((eb) => ['site_id', eb.fn.countAll().as('n')])
      .where('site_id', 'in', siteIds.slice(i, i + CHUNK))
      .groupBy('site_id')
      .execute();
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

/** The zone's settings that nginx must know at load time; a node's own cache capacity (MB, 0: none) wins over the zone's size. */
const zoneStructure = (s: ZoneSettings, cacheCapacity: number): edge.DesiredStateInput['structure']['zone'] => ({
  httpPorts: s.ports.httpPorts,
  httpsPorts: s.ports.httpsPorts,
  nginx: {
    ...s.nginxWorker,
    ...s.nginxHttp,
    cacheTime: s.resource.cacheTime,
    cacheSize: cacheCapacity || s.resource.cacheSize,
    streamConnectTimeout: s.nginxStream.proxyConnectTimeout,
    streamTimeout: s.nginxStream.proxyTimeout,
  },
  proxy: {
    connectTimeout: s.nginxCustom.connectTimeout,
    sendTimeout: s.nginxCustom.sendTimeout,
    readTimeout: s.nginxCustom.readTimeout,
    keepaliveTimeout: s.nginxCustom.keepaliveTimeout,
    buffering: s.nginxCustom.proxyBuffering,
  },
  http2: s.http2.enabled,
  forceSSLRedirectCode: s.forceSSLRedirectCode.code,
});

/** The zone's settings the Lua runtime enforces: firewall switch, IP sets, default anti-CC and the per-address limits. */
const zoneData = (s: ZoneSettings): Omit<edge.ZoneData, 'restricted' | 'ray' | 'noDomainPage'> => ({
  firewall: s.firewall.enabled,
  ipset: [...new Set(s.ipset.sets.flatMap((set) => set.ips))],
  anticc: s.anticc.enabled ? s.anticc.rules.map((r, i) => ({ ...r, id: i + 1 })) : [],
  invalidDomainLimit: s.invalidDomainLimitCount.count,
  tlsLimit: s.tlsLimitCount.count,
});

async function certificatesOf(deps: StateDeps, sites: edge.DesiredStateInput['structure']['sites']) {
  const ids = [...new Set(sites.flatMap((s) => s.domains.map((d) => d.certificateId)).filter((id): id is number => typeof id === 'number'))];
  if (!ids.length) return [];
  const rows = await deps.db.selectFrom('certificates').select(['id', 'chain', 'key_sealed']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((c) => ({ id: c.id, chain: c.chain, key: decrypt(deps.secrets.dataKey, c.key_sealed) }));
}
