import type { virtualNodeSchemas } from '@edgekeep/contract';
import type { Insertable } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedZone } from '../zones/repo';

const base = (db: Db, zoneId: number) =>
  db
    .selectFrom('nodes')
    .innerJoin('virtual_nodes', 'virtual_nodes.node_id', 'nodes.id')
    .select(['nodes.id', 'nodes.node_uid', 'nodes.zone_id', 'nodes.name', 'nodes.memo', 'nodes.created_at', 'nodes.updated_at', 'virtual_nodes.switch_interval'])
    .where('nodes.zone_id', '=', zoneId);
export type VirtualNodeRow = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
type RecordValues = Insertable<Database['virtual_node_records']>;

/** The virtual nodes of a zone the caller reached; one of another zone answers like a missing one. */
export function virtualNodesRepo(db: Db, zone: ReachedZone) {
  return {
    page(query: z.infer<typeof virtualNodeSchemas.virtualNodesQuery>) {
      let q = base(db, zone.id);
      if (query.name) q = q.where('nodes.name', 'like', `%${query.name}%`);
      return paginate(q, { page: query, sortable: { name: 'nodes.name', createdAt: 'nodes.created_at' }, defaultSort: { column: 'nodes.created_at', order: 'desc' }, idColumn: 'nodes.id' });
    },

    async get(id: number) {
      const row = await base(db, zone.id).where('nodes.id', '=', id).executeTakeFirst();
      if (!row) throw notFound('virtual node');
      return row;
    },

    /** The records of the given virtual nodes. */
    records: async (rows: VirtualNodeRow[]) =>
      rows.length ? db.selectFrom('virtual_node_records').selectAll().where('virtual_node_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [],

    /** An ordinary (not virtual) node of the zone, with its address. */
    ordinaryNode: (nodeId: number) => db.selectFrom('nodes').select(['id', 'ip']).where('id', '=', nodeId).where('zone_id', '=', zone.id).where('virtual', '=', 0).executeTakeFirst(),

    /** A new virtual node of the zone (a node row and its switch interval); answers its id. */
    async insert(values: { node_uid: string; name: string; memo: string; switch_interval: number }) {
      const at = now();
      const { switch_interval, ...node } = values;
      const row = await db
        .insertInto('nodes')
        .values({ ...node, zone_id: zone.id, client_id: zone.client_id, ip: '', type: 'edge', virtual: 1, role: 'main', port_type: 7, bandwidth: 0, cache_capacity: 0, enabled: 1, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('virtual_nodes').values({ node_id: row.id, switch_interval }).execute();
      return row.id;
    },

    /** Replaces the virtual node's records. */
    async replaceRecords(vnode: { id: number }, rows: RecordValues[]) {
      await db.deleteFrom('virtual_node_records').where('virtual_node_id', '=', vnode.id).execute();
      await db.insertInto('virtual_node_records').values(rows).execute();
    },

    async update(vnode: VirtualNodeRow, values: { name?: string; memo?: string; switchInterval?: number }) {
      if (values.switchInterval !== undefined) await db.updateTable('virtual_nodes').set({ switch_interval: values.switchInterval }).where('node_id', '=', vnode.id).execute();
      await db
        .updateTable('nodes')
        .set({ ...(values.name === undefined ? {} : { name: values.name }), ...(values.memo === undefined ? {} : { memo: values.memo }), updated_at: now() })
        .where('id', '=', vnode.id)
        .execute();
    },

    /** A node group that holds the virtual node, if any. */
    firstGroup: (vnode: VirtualNodeRow) => db.selectFrom('node_group_members').select('group_id').where('node_id', '=', vnode.id).executeTakeFirst(),

    remove: (vnode: VirtualNodeRow) => db.deleteFrom('nodes').where('id', '=', vnode.id).execute(),
  };
}

/** Unscoped: a virtual node's record that points at one of these nodes, if any. */
export const virtualRecordOfNodes = (db: Db, nodeIds: number[]) =>
  db.selectFrom('virtual_node_records').select(['node_id', 'virtual_node_id']).where('node_id', 'in', nodeIds).executeTakeFirst();
