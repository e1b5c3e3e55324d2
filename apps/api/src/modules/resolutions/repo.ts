import type { infraSchemas } from '@edgekeep/contract';
import { PostgresAdapter, sql, type Insertable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Account } from '../accounts/repo';
import { visibleZones } from '../zones/repo';

/*
 * The DNS resolution table. A client reads the rows of the zones it sees through `resolutionsRepo(deps, actor)`; the
 * computation of a zone's rows and the check of which zones are stale run for every zone and are plain functions
 * named as unscoped, keyed by zone.
 */

type Query = z.infer<typeof infraSchemas.resolutionsQuery>;

/** The resolution rows of the zones a client sees. */
export function resolutionsRepo(deps: AppDeps, actor: Account) {
  return {
    page(query: Query) {
      let q = deps.db
        .selectFrom('dns_resolutions as r')
        .innerJoin('sites', 'sites.id', 'r.site_id')
        .innerJoin('zones', 'zones.id', 'r.zone_id')
        .innerJoin('node_groups as g', 'g.id', 'r.group_id')
        .select(['r.id', 'r.site_id', 'r.zone_id', 'r.group_id', 'r.line', 'r.cname', 'r.records', 'r.backup', 'r.updated_at', 'sites.name as site_name', 'zones.name as zone_name', 'g.name as group_name'])
        .where('r.zone_id', 'in', visibleZones(deps, actor).select('zones.id'));
      if (query.siteID) q = q.where('r.site_id', '=', query.siteID);
      if (query.cname) q = q.where('r.cname', 'like', `%${query.cname.toLowerCase()}%`);
      if (query.line) q = q.where('r.line', '=', query.line);
      if (query.zoneID) q = q.where('r.zone_id', '=', query.zoneID);
      return paginate(q, {
        page: query,
        sortable: { cname: 'r.cname', siteName: 'sites.name', line: 'r.line', updatedAt: 'r.updated_at' },
        defaultSort: { column: 'sites.name', order: 'asc' },
        idColumn: 'r.id',
      });
    },
  };
}

/** Unscoped: each zone's revision and the revision its rows were computed at (null: never), of these zones or all. */
export async function computedRevisions(db: Db, zoneIds?: number[]) {
  let zones = db
    .selectFrom('zone_revisions as z')
    .leftJoin('dns_resolution_zones as r', 'r.zone_id', 'z.zone_id')
    .select(['z.zone_id as id', 'z.revision', 'r.revision as computed']);
  if (zoneIds) zones = zones.where('z.zone_id', 'in', zoneIds);
  return zones.execute();
}

/** Unscoped: the health of the ordinary nodes of these zones (or all) and whether they answer in the rows now. */
export async function nodesHealth(db: Db, zoneIds?: number[]) {
  let nodes = db.selectFrom('nodes').select(['id', 'zone_id', 'enabled', 'virtual', 'initialized_at', 'last_report_at', 'apply_error', 'monitor_breach', 'monitor', 'resolvable']);
  if (zoneIds) nodes = nodes.where('zone_id', 'in', zoneIds);
  return nodes.where('virtual', '=', 0).execute();
}

/** Unscoped: sites in normal status on the zone's products, with their group and their product's groups. */
export const normalSitesOfZone = (db: Db, zoneId: number) =>
  db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'sites.cname', 'sites.group_id', 'sites.force_backup', 'products.group_id as product_group_id', 'products.backup_group_id'])
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
    .execute();

/** Unscoped: what a zone's answers are made from: its groups and their members, its nodes, sub nodes and virtual nodes' records. */
export async function zoneAnswerSources(db: Db, zoneId: number) {
  const groups = await db.selectFrom('node_groups').select(['id', 'line', 'dns_resolve']).where('zone_id', '=', zoneId).execute();
  const members = groups.length ? await db.selectFrom('node_group_members').select(['group_id', 'node_id']).where('group_id', 'in', groups.map((g) => g.id)).execute() : [];
  // the columns the answers and the nodes' health take (not their reports: a zone's every node, after each change)
  const nodes = await db
    .selectFrom('nodes')
    .select(['id', 'ip', 'role', 'enabled', 'virtual', 'initialized_at', 'last_report_at', 'apply_error', 'monitor_breach', 'monitor', 'resolvable'])
    .where('zone_id', '=', zoneId)
    .execute();
  const subs = await db.selectFrom('node_sub_nodes').select(['node_id', 'ip']).where('zone_id', '=', zoneId).orderBy('id').execute();
  const virtualRecords = await db
    .selectFrom('virtual_node_records')
    .select(['virtual_node_id', 'type', 'value', 'node_id'])
    .where('virtual_node_id', 'in', nodes.filter((n) => n.virtual).map((n) => n.id).concat(0))
    .orderBy('id')
    .execute();
  return { groups, members, nodes, subs, virtualRecords };
}

/** The first key of the PostgreSQL advisory locks that take turns computing a zone (the second is the zone's id). */
const ZONE_COMPUTE_LOCK = 0x454b_7201;

/**
 * Unscoped: runs `fn` in a transaction in which the zone's computation has its turn. On PostgreSQL the computations of
 * one zone take turns (a lock held until the transaction ends): two at once, as sites made together start, each
 * deleted and wrote the same rows and deadlocked; SQLite runs one transaction at a time anyway.
 */
export const inZoneTurn = (db: Db, zoneId: number, fn: (tx: Db) => Promise<void>) =>
  db.transaction().execute(async (tx) => {
    if (tx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${ZONE_COMPUTE_LOCK}::int, ${zoneId}::int)`.execute(tx);
    await fn(tx);
  });

type ResolutionRow = Insertable<Database['dns_resolutions']>;

/**
 * Unscoped: replaces the zone's resolution rows, sets the answering flag of nodes (`resolvable`: the node ids to
 * flag 0 and 1) and notes the zone revision the rows reflect.
 */
export async function storeZoneResolutions(db: Db, zoneId: number, rows: ResolutionRow[], resolvable: Map<0 | 1, number[]>, revision: number, stamp: string) {
  await db.deleteFrom('dns_resolutions').where('zone_id', '=', zoneId).execute();
  for (const row of rows) {
    await db
      .insertInto('dns_resolutions')
      .values(row)
      .onConflict((oc) => oc.columns(['site_id', 'line']).doUpdateSet({ ...row }))
      .execute();
  }
  for (const [flag, ids] of resolvable) if (ids.length) await db.updateTable('nodes').set({ resolvable: flag }).where('id', 'in', ids).execute();
  await db
    .insertInto('dns_resolution_zones')
    .values({ zone_id: zoneId, revision, computed_at: stamp })
    .onConflict((oc) => oc.column('zone_id').doUpdateSet({ revision, computed_at: stamp }))
    .execute();
}
