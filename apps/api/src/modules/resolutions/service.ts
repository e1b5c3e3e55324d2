import { infraSchemas } from '@edgekeep/contract';
import { z } from 'zod';
import type { Db } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { zonesRepo } from '../zones/repo';
import { clientOf } from '../zones/service';
import { computeZone } from './compute';
import { isResolvable } from './health';
import { requestDnsSync } from '../dns/sync-request';
import { readJson } from '../../db/json-column';
import { computedRevisions, nodesHealth, resolutionsRepo } from './repo';

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
  const stale = new Set((await computedRevisions(db, zoneIds)).filter((z) => z.computed === null || Number(z.computed) !== Number(z.revision)).map((z) => z.id));
  for (const n of await nodesHealth(db, zoneIds)) if (isResolvable(n, at) !== (n.resolvable === 1)) stale.add(n.zone_id);
  return [...stale];
}

export async function refreshStale(deps: Pick<AppDeps, 'db'> & Partial<Pick<AppDeps, 'scheduler' | 'log'>>, zoneIds?: number[]) {
  await refreshResolutions(deps, await staleZones(deps.db, zoneIds));
}

type Query = z.infer<typeof infraSchemas.resolutionsQuery>;
const resolutionRecords = z.array(infraSchemas.resolutionRecord);

export async function listResolutions(deps: AppDeps, principal: Principal, query: Query) {
  const actor = await clientOf(deps, principal);
  await refreshStale(deps, await zonesRepo(deps, actor).ids());
  const page = await resolutionsRepo(deps, actor).page(query);
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

