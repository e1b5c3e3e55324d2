import type { edge } from '@edgekeep/contract';
import type { Db } from '../db';
import { genevaOf, monitorOf } from '../modules/resolutions/health';

/** A built state is reused this long at most, however often its zone's revision stays the same. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 256;

type Entry = { zoneId: number; revision: number; at: number; state: Promise<edge.DesiredState> };

/**
 * Every node of a zone gets the same desired state but for what is its own: its settings (monitor, Geneva), its ray
 * id and, through its cache capacity and its groups, the zone's cache size and the sites forced onto a backup group.
 * When a zone's revision moves, all its nodes ask for the new state at once: it is built once per instance for the
 * nodes that share those inputs (a build in progress is shared too) and made each node's own as it is answered.
 */
export function createStateCache({ db, build }: { db: Db; build: (nodeId: number) => Promise<edge.DesiredState> }) {
  const entries = new Map<string, Entry>();

  const evict = (zoneId: number, revision: number, now: number) => {
    for (const [key, e] of entries) {
      if (now - e.at > TTL_MS || (e.zoneId === zoneId && e.revision < revision)) entries.delete(key);
    }
    while (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  };

  return async function stateOf(nodeId: number): Promise<edge.DesiredState> {
    const node = await db
      .selectFrom('nodes')
      .innerJoin('zones', 'zones.id', 'nodes.zone_id')
      .select(['nodes.zone_id', 'zones.revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
      .where('nodes.id', '=', nodeId)
      .executeTakeFirstOrThrow();
    const groups = await db.selectFrom('node_group_members').select('group_id').where('node_id', '=', nodeId).orderBy('group_id').execute();
    const key = [node.zone_id, node.revision, node.cache_capacity, groups.map((g) => g.group_id).join('.')].join(':');
    const now = Date.now();
    let entry = entries.get(key);
    if (!entry || now - entry.at > TTL_MS) {
      evict(node.zone_id, node.revision, now);
      const state = build(nodeId);
      entry = { zoneId: node.zone_id, revision: node.revision, at: now, state };
      entries.set(key, entry);
      const built = entry;
      state.catch(() => entries.get(key) === built && entries.delete(key));
    }
    const state = await entry.state;
    return {
      ...state,
      node: { monitor: monitorOf(node), geneva: genevaOf(node) },
      data: { ...state.data, zone: { ...state.data.zone, ray: { ...state.data.zone.ray, node: nodeId } } },
    };
  };
}
