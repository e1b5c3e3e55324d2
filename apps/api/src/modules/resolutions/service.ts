import { infraSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import type { Db } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { clientOf, visibleZones } from '../zones/service';
import { computeZone } from './compute';
import { isResolvable } from './health';
import { requestDnsSync } from '../dns/sync-request';
import { readJson } from '../../db/json-column';

/** Recomputes the resolution rows of these zones now (after a change of their nodes, groups or sites); the DNS provider follows. */
export async function refreshResolutions(deps: Pick<AppDeps, 'db'> & Partial<Pick<AppDeps, 'scheduler' | 'log'>>, zoneIds: number[]) {
  for (const id of new Set(zoneIds)) await computeZone(deps.db, id);
  if (zoneIds.length && deps.scheduler && deps.log) requestDnsSync({ scheduler: deps.scheduler, log: deps.log });
}

/**
 * Zones whose rows no longer hold: their revision moved on since (a site or product changed elsewhere), or a
 * node's health changed (a report crossed a threshold, a node fell silent).
 */
export async function staleZones(db: Db, zoneIds?: number[], at = Date.now()) {
  if (zoneIds && !zoneIds.length) return [];
  let zones = db
    .selectFrom('zones')
    .leftJoin('dns_resolution_zones as r', 'r.zone_id', 'zones.id')
    .select(['zones.id', 'zones.revision', 'r.revision as computed']);
  if (zoneIds) zones = zones.where('zones.id', 'in', zoneIds);
  const stale = new Set((await zones.execute()).filter((z) => z.computed === null || Number(z.computed) !== Number(z.revision)).map((z) => z.id));
  let nodes = db.selectFrom('nodes').select(['id', 'zone_id', 'enabled', 'virtual', 'initialized_at', 'last_report_at', 'apply_error', 'monitor_breach', 'monitor', 'resolvable']);
  if (zoneIds) nodes = nodes.where('zone_id', 'in', zoneIds);
  for (const n of await nodes.where('virtual', '=', 0).execute()) if (isResolvable(n, at) !== (n.resolvable === 1)) stale.add(n.zone_id);
  return [...stale];
}

export async function refreshStale(deps: Pick<AppDeps, 'db'> & Partial<Pick<AppDeps, 'scheduler' | 'log'>>, zoneIds?: number[]) {
  await refreshResolutions(deps, await staleZones(deps.db, zoneIds));
}

type Query = z.infer<typeof infraSchemas.resolutionsQuery>;
const resolutionRecords = z.array(infraSchemas.resolutionRecord);

export async function listResolutions(deps: AppDeps, principal: Principal, query: Query) {
  const actor = await clientOf(deps, principal);
  const zoneIds = (await visibleZones(deps, actor).select('zones.id').execute()).map((z) => z.id);
  await refreshStale(deps, zoneIds);
  let q = deps.db
    .selectFrom('dns_resolutions as r')
    .innerJoin('sites', 'sites.id', 'r.site_id')
    .innerJoin('zones', 'zones.id', 'r.zone_id')
    .innerJoin('node_groups as g', 'g.id', 'r.group_id')
    .select(['r.id', 'r.site_id', 'r.zone_id', 'r.group_id', 'r.line', 'r.cname', 'r.records', 'r.backup', 'r.updated_at', 'sites.name as site_name', 'zones.name as zone_name', 'g.name as group_name'])
    .where('r.zone_id', 'in', zoneIds.concat(0));
  if (query.siteID) q = q.where('r.site_id', '=', query.siteID);
  if (query.cname) q = q.where('r.cname', 'like', `%${query.cname.toLowerCase()}%`);
  if (query.line) q = q.where('r.line', '=', query.line);
  if (query.zoneID) q = q.where('r.zone_id', '=', query.zoneID);
  const page = await paginate(q, {
    page: query,
    sortable: { cname: 'r.cname', siteName: 'sites.name', line: 'r.line', updatedAt: 'r.updated_at' },
    defaultSort: { column: 'sites.name', order: 'asc' },
    idColumn: 'r.id',
  });
  return {
    total: page.total,
    data: page.data.map((r) => ({
      id: r.id,
      siteID: r.site_id,
      siteName: r.site_name,
      cname: r.cname,
      zoneID: r.zone_id,
      zoneName: r.zone_name,
      groupID: r.group_id,
      groupName: r.group_name,
      line: r.line as Query['line'] & string,
      records: readJson('dns_resolutions.records', resolutionRecords, r.records),
      backup: r.backup === 1,
      updatedAt: r.updated_at,
    })),
  };
}

