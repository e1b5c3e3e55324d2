import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { NodeGroupTable } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedZone } from '../zones/repo';

export type GroupRow = Selectable<NodeGroupTable>;
type GroupValues = Omit<Insertable<NodeGroupTable>, 'zone_id' | 'created_at' | 'updated_at'>;

/** The node groups of a zone the caller reached; a group of another zone answers like a missing one. */
export function groupsRepo(db: Db, zone: ReachedZone) {
  const groups = () => db.selectFrom('node_groups').where('zone_id', '=', zone.id);
  return {
    page: (page: { page: number; pageSize: number }) => paginate(groups().selectAll(), { page, sortable: {}, defaultSort: { column: 'priority', order: 'asc' } }),

    /** The member nodes of the given groups of the zone. */
    members: async (rows: GroupRow[]) =>
      rows.length ? db.selectFrom('node_group_members').select(['group_id', 'node_id']).where('group_id', 'in', rows.map((r) => r.id)).orderBy('node_id').execute() : [],

    names: () => groups().select(['id', 'name']).orderBy('priority').orderBy('id').execute(),

    async get(id: number) {
      const row = await groups().selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('group');
      return row;
    },

    /** How many of the given node ids are nodes of the zone. */
    async zoneNodeCount(nodeIds: number[]) {
      return (await db.selectFrom('nodes').select('id').where('zone_id', '=', zone.id).where('id', 'in', nodeIds).execute()).length;
    },

    async insert(values: GroupValues) {
      const at = now();
      return db.insertInto('node_groups').values({ ...values, zone_id: zone.id, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
    },

    update: (group: GroupRow, values: Updateable<NodeGroupTable>) =>
      db.updateTable('node_groups').set({ ...values, updated_at: now() }).where('id', '=', group.id).execute(),

    /** Replaces the group's members. */
    async setMembers(group: GroupRow, nodeIds: number[]) {
      await db.deleteFrom('node_group_members').where('group_id', '=', group.id).execute();
      if (nodeIds.length) await db.insertInto('node_group_members').values([...new Set(nodeIds)].map((node_id) => ({ group_id: group.id, node_id }))).execute();
    },

    /** Whether a product uses the group as its group or its backup group. */
    async inUse(group: GroupRow) {
      const used = await db
        .selectFrom('products')
        .select('id')
        .where((eb) => eb.or([eb('group_id', '=', group.id), eb('backup_group_id', '=', group.id)]))
        .executeTakeFirst();
      return used !== undefined;
    },

    remove: (group: GroupRow) => db.deleteFrom('node_groups').where('id', '=', group.id).execute(),
  };
}
