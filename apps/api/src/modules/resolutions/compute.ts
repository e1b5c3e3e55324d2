import type { infraSchemas } from '@edgekeep/contract';
import { PostgresAdapter, sql } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { isResolvable } from './health';

type ResolutionRecord = z.infer<typeof infraSchemas.resolutionRecord>;
const addressRecord = (value: string, nodeID: number | null, subNode = false): ResolutionRecord => ({ type: value.includes(':') ? 'AAAA' : 'A', value, nodeID, subNode });

/** Sites in normal status on the zone's products, each with the group it resolves through (a forced backup: the product's backup group). */
async function sitesOfZone(db: Db, zoneId: number) {
  const rows = await db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'sites.cname', 'sites.group_id', 'sites.force_backup', 'products.group_id as product_group_id', 'products.backup_group_id'])
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
    .execute();
  return rows.map((s) => ({ id: s.id, cname: s.cname, groupId: s.force_backup && s.backup_group_id ? s.backup_group_id : (s.group_id ?? s.product_group_id) }));
}

/** The answers of each group of the zone: healthy main nodes and their sub nodes, virtual nodes' records; backups when nothing else answers. */
async function answersOfGroups(db: Db, zoneId: number, at: number) {
  const groups = await db.selectFrom('node_groups').select(['id', 'line', 'dns_resolve']).where('zone_id', '=', zoneId).execute();
  const members = groups.length ? await db.selectFrom('node_group_members').select(['group_id', 'node_id']).where('group_id', 'in', groups.map((g) => g.id)).execute() : [];
  const nodes = await db.selectFrom('nodes').selectAll().where('zone_id', '=', zoneId).execute();
  const healthy = new Set(nodes.filter((n) => isResolvable(n, at)).map((n) => n.id));
  const subs = await db.selectFrom('node_sub_nodes').select(['node_id', 'ip']).where('zone_id', '=', zoneId).orderBy('id').execute();
  const virtualRecords = await db
    .selectFrom('virtual_node_records')
    .select(['virtual_node_id', 'type', 'value', 'node_id'])
    .where('virtual_node_id', 'in', nodes.filter((n) => n.virtual).map((n) => n.id).concat(0))
    .orderBy('id')
    .execute();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const nodeAnswers = (id: number) => [addressRecord(byId.get(id)!.ip, id), ...subs.filter((s) => s.node_id === id).map((s) => addressRecord(s.ip, id, true))];
  const answers = new Map<number, { line: string; records: ResolutionRecord[]; backup: boolean }>();
  for (const g of groups.filter((x) => x.dns_resolve)) {
    const ids = members.filter((m) => m.group_id === g.id).map((m) => m.node_id).filter((id) => byId.get(id)?.enabled);
    const main: ResolutionRecord[] = [];
    for (const id of ids) {
      const node = byId.get(id)!;
      if (node.virtual) {
        for (const r of virtualRecords.filter((v) => v.virtual_node_id === id)) {
          if (r.type === 'cname') main.push({ type: 'CNAME', value: r.value, nodeID: null, subNode: false });
          else if (r.node_id === null || healthy.has(r.node_id)) main.push(addressRecord(r.value, r.node_id));
        }
      } else if (node.role === 'main' && healthy.has(id)) main.push(...nodeAnswers(id));
    }
    const backup = main.length ? [] : ids.filter((id) => byId.get(id)!.role === 'backup' && healthy.has(id)).flatMap(nodeAnswers);
    answers.set(g.id, { line: g.line, records: main.length ? main : backup, backup: backup.length > 0 });
  }
  return { answers, nodes, healthy };
}

/** The first key of the PostgreSQL advisory locks that take turns computing a zone (the second is the zone's id). */
const ZONE_COMPUTE_LOCK = 0x454b_7201;

/**
 * Recomputes the zone's rows of the resolution table from what is configured and how its nodes are now, and
 * notes which nodes answered and the zone revision the rows reflect. On PostgreSQL the computations of one zone take
 * turns (a lock held until the transaction ends): two at once, as sites made together start, each deleted and
 * wrote the same rows and deadlocked; SQLite runs one transaction at a time anyway.
 */
export async function computeZone(db: Db, zoneId: number, at = Date.now()) {
  await db.transaction().execute(async (tx) => {
    if (tx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${ZONE_COMPUTE_LOCK}::int, ${zoneId}::int)`.execute(tx);
    const zone = await tx.selectFrom('zones').select('revision').where('id', '=', zoneId).executeTakeFirst();
    if (!zone) return;
    const { answers, nodes, healthy } = await answersOfGroups(tx, zoneId, at);
    const stamp = now();
    const rows = (await sitesOfZone(tx, zoneId)).flatMap((s) => {
      const a = answers.get(s.groupId);
      return a ? [{ zone_id: zoneId, site_id: s.id, group_id: s.groupId, line: a.line, cname: s.cname, records: JSON.stringify(a.records), backup: a.backup ? 1 : 0, updated_at: stamp } as const] : [];
    });
    await tx.deleteFrom('dns_resolutions').where('zone_id', '=', zoneId).execute();
    for (const row of rows) {
      await tx
        .insertInto('dns_resolutions')
        .values(row)
        .onConflict((oc) => oc.columns(['site_id', 'line']).doUpdateSet({ ...row }))
        .execute();
    }
    for (const flag of [0, 1] as const) {
      const ids = nodes.filter((n) => healthy.has(n.id) === (flag === 1) && n.resolvable !== flag).map((n) => n.id);
      if (ids.length) await tx.updateTable('nodes').set({ resolvable: flag }).where('id', 'in', ids).execute();
    }
    const revision = Number(zone.revision);
    await tx
      .insertInto('dns_resolution_zones')
      .values({ zone_id: zoneId, revision, computed_at: stamp })
      .onConflict((oc) => oc.column('zone_id').doUpdateSet({ revision, computed_at: stamp }))
      .execute();
  });
}
