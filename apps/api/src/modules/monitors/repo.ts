import type { monitorSchemas } from '@edgekeep/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { notFound } from '../../http/errors';
import type { Account } from '../accounts/repo';
import { visibleZones } from '../zones/repo';

/*
 * The monitors of a client's nodes. A client reaches them only through `monitorsRepo(deps, actor)`, whose queries
 * start from the nodes of the zones it sees (and, to change them, of its own nodes): another client's monitor answers
 * like a missing one. The probe sweep runs across every client: its reads and writes are plain functions named as
 * unscoped.
 */

type MonitorTable = Database['monitors'];
type Query = z.infer<typeof monitorSchemas.monitorsQuery>;

/** Monitors of nodes in the zones the actor sees; `own` narrows to the nodes it owns (to change them). */
const monitorsOf = (deps: AppDeps, actor: Account, own = false) => {
  const q = deps.db
    .selectFrom('monitors')
    .innerJoin('nodes', 'nodes.id', 'monitors.node_id')
    .selectAll('monitors')
    .select(['nodes.name as node_name', 'nodes.ip as node_ip', 'nodes.enabled as node_enabled', 'nodes.zone_id'])
    .where('nodes.zone_id', 'in', visibleZones(deps, actor).select('zones.id'));
  return own ? q.where('nodes.client_id', '=', actor.id) : q;
};
export type MonitorRow = Awaited<ReturnType<ReturnType<typeof monitorsOf>['executeTakeFirstOrThrow']>>;
const ids = (rows: MonitorRow[]) => rows.map((m) => m.id);

export function monitorsRepo(deps: AppDeps, actor: Account) {
  const db = deps.db;
  return {
    /** A page of the client's monitors; `groupId`: only those of that monitor group. */
    page(query: Query, groupId?: number) {
      let q = monitorsOf(deps, actor);
      if (groupId !== undefined) q = q.where('monitors.id', 'in', db.selectFrom('monitor_group_members').select('monitor_id').where('group_id', '=', groupId));
      return paginate(q, {
        page: query,
        sortable: { nodeName: 'nodes.name', status: 'monitors.status', type: 'monitors.type', updatedAt: 'monitors.updated_at' },
        defaultSort: { column: 'monitors.created_at', order: 'desc' },
        idColumn: 'monitors.id',
      });
    },

    all: () => monitorsOf(deps, actor).orderBy('nodes.name').execute(),

    /** A page of the ordinary (not virtual) nodes of the client's zones without a monitor. */
    unmonitored(query: Query) {
      const q = db
        .selectFrom('nodes')
        .select(['nodes.id', 'nodes.name', 'nodes.ip', 'nodes.zone_id'])
        .where('nodes.zone_id', 'in', visibleZones(deps, actor).select('zones.id'))
        .where('nodes.virtual', '=', 0)
        .where('nodes.id', 'not in', db.selectFrom('monitors').select('node_id'));
      return paginate(q, { page: query, sortable: { name: 'nodes.name' }, defaultSort: { column: 'nodes.name', order: 'asc' }, idColumn: 'nodes.id' });
    },

    /** The ordinary nodes among `nodeIds` that the client owns, in the zones it sees. */
    ownNodes: (nodeIds: number[]) =>
      db
        .selectFrom('nodes')
        .select(['id'])
        .where('id', 'in', nodeIds)
        .where('client_id', '=', actor.id)
        .where('virtual', '=', 0)
        .where('zone_id', 'in', visibleZones(deps, actor).select('zones.id'))
        .execute(),

    /** A monitor of one of the given nodes, if one has any. */
    firstOf: (nodes: { id: number }[]) => db.selectFrom('monitors').select('node_id').where('node_id', 'in', nodes.map((n) => n.id)).executeTakeFirst(),

    /** New monitors of the given nodes of the client, with the same values. */
    async insert(nodes: { id: number }[], values: Omit<Insertable<MonitorTable>, 'node_id' | 'created_at' | 'updated_at'>) {
      const at = now();
      await db.insertInto('monitors').values(nodes.map((n) => ({ node_id: n.id, ...values, created_at: at, updated_at: at }))).execute();
    },

    /** Monitors the client may change (of its own nodes), or 101003/404 when one of them is not. */
    async owned(monitorIds: number[]) {
      const rows = await monitorsOf(deps, actor, true).where('monitors.id', 'in', monitorIds).execute();
      if (rows.length !== new Set(monitorIds).size) throw notFound('monitor');
      return rows;
    },

    get: (id: number) => monitorsOf(deps, actor).where('monitors.id', '=', id).executeTakeFirstOrThrow(),

    update: (rows: MonitorRow[], values: Updateable<MonitorTable>) =>
      db.updateTable('monitors').set({ ...values, updated_at: now() }).where('id', 'in', ids(rows)).execute(),

    remove: (rows: MonitorRow[]) => db.deleteFrom('monitors').where('id', 'in', ids(rows)).execute(),
  };
}

/** Unscoped, for the probe sweep: every enabled monitor with its node. */
export const enabledMonitors = (db: Db) =>
  db
    .selectFrom('monitors')
    .innerJoin('nodes', 'nodes.id', 'monitors.node_id')
    .selectAll('monitors')
    .select(['nodes.ip', 'nodes.enabled as node_enabled', 'nodes.zone_id', 'nodes.client_id as node_client_id', 'nodes.name as node_name'])
    .where('monitors.enabled', '=', 1)
    .execute();

/**
 * Unscoped, for the probe sweep: moves the monitor's checked_at from what this instance read to `stamp`; answers
 * whether it did (API instances share the database: only the one whose claim moved it probes).
 */
export async function claimMonitor(db: Db, m: { id: number; checked_at: string | null }, stamp: string) {
  const claim = await db
    .updateTable('monitors')
    .set({ checked_at: stamp })
    .where('id', '=', m.id)
    .where((eb) => (m.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', m.checked_at)))
    .executeTakeFirst();
  return Number(claim.numUpdatedRows) === 1;
}

/** Unscoped, for the probe sweep: a probe's outcome, normal (1) or error (2). */
export const recordProbe = (db: Db, monitorId: number, error: string | null) =>
  db.updateTable('monitors').set({ status: error ? 2 : 1, last_error: error }).where('id', '=', monitorId).execute();

/** Unscoped, for the probe sweep: pauses the node of a failing monitor. */
export const pauseNode = (db: Db, nodeId: number) => db.updateTable('nodes').set({ enabled: 0, updated_at: now() }).where('id', '=', nodeId).execute();

type GroupRow = Selectable<Database['monitor_groups']>;

/** The monitor groups of a client (they belong to the client that made them); another's answers like a missing one. */
export function monitorGroupsRepo(db: Db, actor: Account) {
  const groups = () => db.selectFrom('monitor_groups').selectAll().where('client_id', '=', actor.id);
  return {
    async get(id: number) {
      const row = await groups().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('monitor group');
      return row;
    },

    page: (query: Query) => paginate(groups(), { page: query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } }),

    all: () => groups().orderBy('name').execute(),

    /** The memberships of the given groups. */
    members: async (rows: GroupRow[]) => (rows.length ? db.selectFrom('monitor_group_members').selectAll().where('group_id', 'in', rows.map((r) => r.id)).execute() : []),

    async insert(values: { name: string; memo: string }) {
      const at = now();
      return (await db.insertInto('monitor_groups').values({ client_id: actor.id, ...values, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    },

    update: (group: GroupRow, values: { name?: string; memo?: string }) =>
      db
        .updateTable('monitor_groups')
        .set({ ...(values.name === undefined ? {} : { name: values.name }), ...(values.memo === undefined ? {} : { memo: values.memo }), updated_at: now() })
        .where('id', '=', group.id)
        .execute(),

    remove: (rows: GroupRow[]) => db.deleteFrom('monitor_groups').where('id', 'in', rows.map((g) => g.id)).execute(),

    /** Adds the client's monitors to the group; those already in it stay as they are. */
    async addMembers(group: GroupRow, monitors: MonitorRow[]) {
      const present = (await db.selectFrom('monitor_group_members').select('monitor_id').where('group_id', '=', group.id).execute()).map((m) => m.monitor_id);
      const fresh = [...new Set(ids(monitors))].filter((id) => !present.includes(id));
      if (fresh.length) await db.insertInto('monitor_group_members').values(fresh.map((monitor_id) => ({ group_id: group.id, monitor_id }))).execute();
    },

    removeMembers: (group: GroupRow, monitorIds: number[]) =>
      db.deleteFrom('monitor_group_members').where('group_id', '=', group.id).where('monitor_id', 'in', monitorIds).execute(),
  };
}
