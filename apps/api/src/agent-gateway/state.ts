import { edge } from '@edgekeep/contract';
import type { Db } from '../db';
import type { AppDeps } from '../deps';
import { decrypt } from '../lib/crypto';
import { optionsOfSites } from '../modules/site-settings/options';
import { firewallDataOf, withL4Firewall } from '../modules/firewall/edge-data';
import { withTrafficLimits } from '../modules/traffic/state';
import { withSiteLimits } from '../modules/site-actions/edge-limits';
import { readZoneSettings, type ZoneSettings } from '../modules/zones/settings';
import { domainOptionsOf } from '../modules/domains/state';
import { l4PortsOfSites } from '../modules/ports/rows';
import { domainModulesOf, wafByDomain } from '../modules/site-modules/edge-state';
import { withWaf } from '../modules/waf-acl/edge-data';
import { genevaOf, monitorOf } from '../modules/resolutions/health';

/**
 * Every enabled domain, with its enabled origins, of the sites in normal status on products of the zone; a site
 * forced onto its product's backup group only on the nodes of that group.
 */
async function sitesOfZone(db: Db, zoneId: number, nodeId: number): Promise<edge.DesiredStateInput['structure']['sites']> {
  const sites = await db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'sites.name', 'sites.gzip'])
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
    .where((eb) =>
      eb.or([
        eb('sites.force_backup', '=', 0),
        eb('products.backup_group_id', 'in', eb.selectFrom('node_group_members').select('group_id').where('node_id', '=', nodeId)),
      ]),
    )
    .orderBy('sites.id')
    .execute();
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
 * certificates its domains serve (keys decrypted for the node), and the sites' IP black- and whitelists. L4
 * ports and the other firewall rules join as their modules land.
 */
export async function buildNodeState(deps: Pick<AppDeps, 'db' | 'secrets'>, nodeId: number): Promise<edge.DesiredState> {
  const { db } = deps;
  const zone = await db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .select(['zones.id', 'zones.settings', 'zones.revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const settings = readZoneSettings(zone.settings);
  const sites = await withL4Firewall(db, await sitesOfZone(db, zone.id, nodeId));
  return edge.desiredState.parse({
    revision: zone.revision,
    structure: {
      zone: zoneStructure(settings, zone.cache_capacity),
      sites,
    },
    data: {
      sites: await withWaf(db, sites, await withSiteLimits(db, sites, await withTrafficLimits(db, sites, await firewallDataOf(db, sites)))),
      certificates: await certificatesOf(deps, sites),
      zone: zoneData(settings),
      domainModules: await domainModulesOf(deps, sites.flatMap((s) => s.domains.map((d) => ({ id: d.id, siteId: s.id })))),
    },
    node: { monitor: monitorOf(zone), geneva: genevaOf(zone) },
  });
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
const zoneData = (s: ZoneSettings): edge.ZoneData => ({
  firewall: s.firewall.enabled,
  ipset: [...new Set(s.ipset.sets.flatMap((set) => set.ips))],
  anticc: s.anticc.enabled ? s.anticc.rules.map((r, i) => ({ ...r, id: i + 1 })) : [],
  invalidDomainLimit: s.invalidDomainLimitCount.count,
  tlsLimit: s.tlsLimitCount.count,
});

async function certificatesOf(deps: Pick<AppDeps, 'db' | 'secrets'>, sites: edge.DesiredStateInput['structure']['sites']) {
  const ids = [...new Set(sites.flatMap((s) => s.domains.map((d) => d.certificateId)).filter((id): id is number => typeof id === 'number'))];
  if (!ids.length) return [];
  const rows = await deps.db.selectFrom('certificates').select(['id', 'chain', 'key_sealed']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((c) => ({ id: c.id, chain: c.chain, key: decrypt(deps.secrets.dataKey, c.key_sealed) }));
}
