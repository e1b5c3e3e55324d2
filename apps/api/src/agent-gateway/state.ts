import { edge } from '@edgekeep/contract';
import type { Db } from '../db';
import type { AppDeps } from '../deps';
import { decrypt } from '../lib/crypto';
import { optionsOfSites } from '../modules/site-settings/options';
import { firewallDataOf, withL4Firewall } from '../modules/firewall/edge-data';
import { withTrafficLimits } from '../modules/traffic/state';
import { withSiteLimits } from '../modules/site-actions/edge-limits';
import type { ZoneSettings } from '../modules/zones/service';
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
    .select(['zones.id', 'zones.settings', 'zones.revision', 'nodes.monitor', 'nodes.geneva'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const settings = JSON.parse(zone.settings) as ZoneSettings;
  const sites = await withL4Firewall(db, await sitesOfZone(db, zone.id, nodeId));
  return edge.desiredState.parse({
    revision: zone.revision,
    structure: {
      zone: {
        httpPorts: settings.ports.httpPorts,
        httpsPorts: settings.ports.httpsPorts,
        nginx: { ...settings.nginxWorker, ...settings.nginxHttp },
      },
      sites,
    },
    data: {
      sites: await withWaf(db, sites, await withSiteLimits(db, sites, await withTrafficLimits(db, sites, await firewallDataOf(db, sites)))),
      certificates: await certificatesOf(deps, sites),
      domainModules: await domainModulesOf(deps, sites.flatMap((s) => s.domains.map((d) => ({ id: d.id, siteId: s.id })))),
    },
    node: { monitor: monitorOf(zone), geneva: genevaOf(zone) },
  });
}

async function certificatesOf(deps: Pick<AppDeps, 'db' | 'secrets'>, sites: edge.DesiredStateInput['structure']['sites']) {
  const ids = [...new Set(sites.flatMap((s) => s.domains.map((d) => d.certificateId)).filter((id): id is number => typeof id === 'number'))];
  if (!ids.length) return [];
  const rows = await deps.db.selectFrom('certificates').select(['id', 'chain', 'key_sealed']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((c) => ({ id: c.id, chain: c.chain, key: decrypt(deps.secrets.dataKey, c.key_sealed) }));
}
