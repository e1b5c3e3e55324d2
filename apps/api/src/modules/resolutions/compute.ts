import type { infraSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { isResolvable } from './health';
import { zoneRevisionOf } from '../zones/repo';
import { inZoneTurn, normalSitesOfZone, storeZoneResolutions, zoneAnswerSources } from './repo';

type ResolutionRecord = z.infer<typeof infraSchemas.resolutionRecord>;
const addressRecord = (value: string, nodeID: number | null, subNode = false): ResolutionRecord => ({ type: value.includes(':') ? 'AAAA' : 'A', value, nodeID, subNode });

/** Sites in normal status on the zone's products, each with the group it resolves through (a forced backup: the product's backup group). */
async function sitesOfZone(db: Db, zoneId: number) {
  const rows = await normalSitesOfZone(db, zoneId);
  return rows.map((s) => ({ id: s.id, cname: s.cname, groupId: s.force_backup && s.backup_group_id ? s.backup_group_id : (s.group_id ?? s.product_group_id) }));
}

/** The answers of each group of the zone: healthy main nodes and their sub nodes, virtual nodes' records; backups when nothing else answers. */
async function answersOfGroups(db: Db, zoneId: number, at: number) {
  const { groups, members, nodes, subs, virtualRecords } = await zoneAnswerSources(db, zoneId);
  const healthy = new Set(nodes.filter((n) => isResolvable(n, at)).map((n) => n.id));
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

/**
 * Recomputes the zone's rows of the resolution table from what is configured and how its nodes are now, and
 * notes which nodes answered and the zone revision the rows reflect; the computations of one zone take turns.
 */
export async function computeZone(db: Db, zoneId: number, at = Date.now()) {
  await inZoneTurn(db, zoneId, async (tx) => {
    const revision = await zoneRevisionOf(tx, zoneId);
    if (revision === undefined) return;
    const { answers, nodes, healthy } = await answersOfGroups(tx, zoneId, at);
    const stamp = now();
    const rows = (await sitesOfZone(tx, zoneId)).flatMap((s) => {
      const a = answers.get(s.groupId);
      return a ? [{ zone_id: zoneId, site_id: s.id, group_id: s.groupId, line: a.line, cname: s.cname, records: JSON.stringify(a.records), backup: a.backup ? 1 : 0, updated_at: stamp } as const] : [];
    });
    const resolvable = new Map(([0, 1] as const).map((flag) => [flag, nodes.filter((n) => healthy.has(n.id) === (flag === 1) && n.resolvable !== flag).map((n) => n.id)]));
    await storeZoneResolutions(tx, zoneId, rows, resolvable, revision, stamp);
  });
}
