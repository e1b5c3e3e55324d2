import { edge } from '@edgekeep/contract';
import type { Db } from '../db';
import type { ZoneSettings } from '../modules/zones/service';

/** Every enabled domain, with its enabled origins, of the sites in normal status on products of the zone. */
async function sitesOfZone(db: Db, zoneId: number): Promise<edge.DesiredStateInput['structure']['sites']> {
  const sites = await db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'sites.name'])
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
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
  const origins = domains.length
    ? await db.selectFrom('upstreams').selectAll().where('domain_id', 'in', domains.map((d) => d.id)).where('enabled', '=', 1).orderBy('id').execute()
    : [];
  return sites.map((site) => ({
    id: site.id,
    name: site.name,
    domains: domains
      .filter((d) => d.site_id === site.id)
      .map((d) => ({
        id: d.id,
        name: d.name,
        originProtocol: d.protocol,
        forceSSL: d.force_ssl === 1,
        hsts: d.hsts === 1,
        certificateId: null,
        origins: origins
          .filter((o) => o.domain_id === d.id)
          .map((o) => ({ host: o.host, port: o.port, weight: o.weight, backup: o.backup === 1, maxFails: o.max_fails, failTimeout: o.fail_timeout })),
      }))
      .filter((d) => d.origins.length > 0),
  }));
}

/**
 * The one function that builds a node's desired state from the database: its zone's ports and nginx settings,
 * and every site served in the zone with its domains and origins. (Certificates, cache rules, error pages,
 * L4 ports and firewall data join as their modules land.)
 */
export async function buildNodeState(db: Db, nodeId: number): Promise<edge.DesiredState> {
  const zone = await db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .select(['zones.id', 'zones.settings', 'zones.revision'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();
  const settings = JSON.parse(zone.settings) as ZoneSettings;
  return edge.desiredState.parse({
    revision: zone.revision,
    structure: {
      zone: {
        httpPorts: settings.ports.httpPorts,
        httpsPorts: settings.ports.httpsPorts,
        nginx: { ...settings.nginxWorker, ...settings.nginxHttp },
      },
      sites: await sitesOfZone(db, zone.id),
    },
    data: { sites: [], certificates: [] },
  });
}
