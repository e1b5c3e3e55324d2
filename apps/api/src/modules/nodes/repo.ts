import type { infraSchemas } from '@edgekeep/contract';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { z } from 'zod';
import { now, type Db, type Dialect } from '../../db';
import { paginate } from '../../db/paging';
import type { NodeCommandTable, NodeTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { notFound } from '../../http/errors';
import type { Account } from '../accounts/repo';
import { OFFLINE_AFTER_SECONDS } from '../resolutions/health';
import { visibleZones, zonesRepo, type ReachedZone } from '../zones/repo';

/*
 * The node aggregate's repository: a node, its sub nodes and its queued actions. A client reaches nodes only through
 * `nodesRepo(deps, actor)`, whose every query starts from the nodes of the zones that client sees; another client's
 * node answers exactly like a missing one. A node read there comes back as a `ReachedNode`, and the changes take only
 * that (`owned` ones for changes: nodes of zones the client owns). What is not a caller's (the addresses taken in a
 * zone, what the edge state, the metrics and the agent read and write of a node) is a plain function whose comment
 * says it is unscoped; the agents' side of the queued actions is in commands-repo.ts.
 */

export type NodeRow = Selectable<NodeTable> & { zone_name: string; zone_revision: number };

declare const reached: unique symbol;
/** A node as the client who reached it sees it; only `nodesRepo(…)` makes one. */
export type ReachedNode = NodeRow & { readonly [reached]: true };

/** The nodes of the zones a client sees, joined with their zone's name and revision, as a query. */
export const nodesOf = (deps: AppDeps, actor: Account) =>
  deps.db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'nodes.zone_id')
    .selectAll('nodes')
    .select(['zones.name as zone_name', 'zone_revisions.revision as zone_revision'])
    .where('nodes.zone_id', 'in', visibleZones(deps, actor).select('zones.id'));

const ids = (nodes: ReachedNode[]) => nodes.map((n) => n.id);
type NodeValues = Omit<Insertable<NodeTable>, 'zone_id' | 'client_id' | 'created_at' | 'updated_at'>;
type NodesQuery = z.infer<typeof infraSchemas.nodesQuery>;
type CommandValues = Omit<Insertable<NodeCommandTable>, 'node_id' | 'created_at'>;

/** The nodes a client sees, and the changes to those of its own zones. */
export function nodesRepo(deps: AppDeps, actor: Account) {
  const db = deps.db;
  const get = async (id: number) => {
    const node = await nodesOf(deps, actor).where('nodes.id', '=', id).executeTakeFirst();
    if (!node) throw notFound('node');
    return node as ReachedNode;
  };
  return {
    /** The client's nodes as a query, for lists and filters across them. */
    query: () => nodesOf(deps, actor),

    /** A page of the client's nodes, filtered by zone, keyword and status (as `statusOf` tells it). */
    page(query: NodesQuery) {
      let q = nodesOf(deps, actor);
      if (query.zoneID) q = q.where('nodes.zone_id', '=', query.zoneID);
      if (query.keyword) {
        const like = `%${query.keyword}%`;
        q = q.where((eb) => eb.or([eb('nodes.name', 'like', like), eb('nodes.ip', 'like', like), eb('nodes.node_uid', 'like', like)]));
      }
      if (query.status) {
        const cutoff = new Date(Date.now() - OFFLINE_AFTER_SECONDS * 1000).toISOString();
        q = q.where((eb) => {
          const live = eb.and([eb('nodes.enabled', '=', 1), eb('nodes.initialized_at', 'is not', null), eb('nodes.last_report_at', '>=', cutoff)]);
          const failing = eb.or([eb('nodes.apply_error', 'is not', null), eb('nodes.monitor_breach', 'is not', null)]);
          switch (query.status) {
            case 'paused':
              return eb('nodes.enabled', '=', 0);
            case 'unknown':
              return eb.and([eb('nodes.enabled', '=', 1), eb.or([eb('nodes.initialized_at', 'is', null), eb('nodes.last_report_at', 'is', null)])]);
            case 'offline':
              return eb.and([eb('nodes.enabled', '=', 1), eb('nodes.initialized_at', 'is not', null), eb('nodes.last_report_at', '<', cutoff)]);
            case 'error':
              return eb.and([live, failing]);
            default:
              return eb.and([live, eb.not(failing)]);
          }
        });
      }
      return paginate(q, {
        page: query,
        sortable: { name: 'nodes.name', ip: 'nodes.ip', createdAt: 'nodes.created_at', lastReportAt: 'nodes.last_report_at' },
        defaultSort: { column: 'nodes.created_at', order: 'desc' },
        idColumn: 'nodes.id',
      });
    },

    /** A node the client sees, or 101003/404 exactly as if it did not exist. */
    get,

    /** Nodes the client may change: each is in a zone the client owns (101003/404 or 101018 otherwise). */
    async owned(nodeIds: number[]) {
      const zones = zonesRepo(deps, actor);
      const nodes = [];
      for (const id of nodeIds) {
        const node = await get(id);
        await zones.owned(node.zone_id);
        nodes.push(node);
      }
      return nodes;
    },

    /** A new node in an owned zone; the caller reads it back with `get`. */
    async insert(zone: ReachedZone, values: NodeValues) {
      const at = now();
      const row = await db
        .insertInto('nodes')
        .values({ ...values, zone_id: zone.id, client_id: zone.client_id, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Changes the given nodes alike; they count as updated. */
    update: (nodes: ReachedNode[], values: Updateable<NodeTable>) =>
      db.updateTable('nodes').set({ ...values, updated_at: now() }).where('id', 'in', ids(nodes)).execute(),

    /** The first of the given nodes that is a member of a node group, if any. */
    firstGrouped: (nodes: ReachedNode[]) => db.selectFrom('node_group_members').select('node_id').where('node_id', 'in', ids(nodes)).executeTakeFirst(),

    remove: (nodes: ReachedNode[]) => db.deleteFrom('nodes').where('id', 'in', ids(nodes)).execute(),

    /** Moves the given nodes and their sub nodes to an owned zone. */
    async move(nodes: ReachedNode[], zone: ReachedZone) {
      await db.updateTable('nodes').set({ zone_id: zone.id, updated_at: now() }).where('id', 'in', ids(nodes)).execute();
      await db.updateTable('node_sub_nodes').set({ zone_id: zone.id }).where('node_id', 'in', ids(nodes)).execute();
    },

    subNodes: (node: ReachedNode) => db.selectFrom('node_sub_nodes').selectAll().where('node_id', '=', node.id).orderBy('id').execute(),

    addSubNode: (node: ReachedNode, values: { ip: string; memo: string }) =>
      db
        .insertInto('node_sub_nodes')
        .values({ node_id: node.id, zone_id: node.zone_id, ...values, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** Removes the node's sub nodes among `subIds`; answers false (and removes none) when one of them is not the node's. */
    async removeSubNodes(node: ReachedNode, subIds: number[]) {
      const found = await db.selectFrom('node_sub_nodes').select('id').where('node_id', '=', node.id).where('id', 'in', subIds).execute();
      if (found.length !== new Set(subIds).size) return false;
      await db.deleteFrom('node_sub_nodes').where('id', 'in', subIds).execute();
      return true;
    },

    queueCommand: (node: ReachedNode, values: CommandValues) =>
      db.insertInto('node_commands').values({ ...values, node_id: node.id, created_at: now() }).returningAll().executeTakeFirstOrThrow(),

    /** The node's last 50 actions, newest first. */
    commands: (node: ReachedNode) => db.selectFrom('node_commands').selectAll().where('node_id', '=', node.id).orderBy('id', 'desc').limit(50).execute(),
  };
}

/** Unscoped: the first of `ips` that is already a node's or a sub node's address in the zone. */
export async function addressTakenInZone(db: Db, zoneId: number, ips: string[]) {
  const taken =
    (await db.selectFrom('nodes').select('ip').where('zone_id', '=', zoneId).where('ip', 'in', ips).executeTakeFirst()) ??
    (await db.selectFrom('node_sub_nodes').select('ip').where('zone_id', '=', zoneId).where('ip', 'in', ips).executeTakeFirst());
  return taken?.ip;
}

/** Unscoped: the addresses of the nodes' sub nodes that are not in the zone yet. */
export async function subNodeAddressesOutside(db: Db, nodeIds: number[], zoneId: number) {
  const rows = await db.selectFrom('node_sub_nodes').select('ip').where('node_id', 'in', nodeIds).where('zone_id', '!=', zoneId).execute();
  return rows.map((r) => r.ip);
}

/**
 * Unscoped, for the metrics: each enrolled node with its zone, what its last report says of nginx and its last apply,
 * and the revision it applied against its zone's newest.
 */
export function enrolledNodeReports(db: Db, dialect: Dialect) {
  const nginxRunning = dialect === 'postgres' ? sql<string | null>`(nodes.report::json->>'nginxRunning')` : sql<string | null>`json_extract(nodes.report, '$.nginxRunning')`;
  return db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'nodes.zone_id')
    .select(['nodes.node_uid', 'zones.name as zone', 'nodes.last_report_at', 'nodes.apply_error', 'nodes.applied_revision', 'zone_revisions.revision', nginxRunning.as('nginx')])
    .where('nodes.credential_hash', 'is not', null)
    .execute();
}

/** Unscoped, for the edge state: the node's zone (its settings and revisions) with the node's own columns. */
export const stateZoneOfNode = (db: Db, nodeId: number) =>
  db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'nodes.zone_id')
    .select(['zones.id', 'nodes.id as node_id', 'zones.settings', 'zone_revisions.revision', 'zone_revisions.sites_revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirstOrThrow();

/** Unscoped, for the state cache: the nodes of a zone (or one node) with what their state depends on, and their group memberships. */
export const stateInputsOfNodes = (db: Db, [column, id]: ['nodes.zone_id' | 'nodes.id', number]) =>
  Promise.all([
    db
      .selectFrom('nodes')
      .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'nodes.zone_id')
      .select(['nodes.id', 'nodes.zone_id', 'zone_revisions.revision', 'nodes.cache_capacity', 'nodes.monitor', 'nodes.geneva'])
      .where(column, '=', id)
      .execute(),
    db
      .selectFrom('node_group_members')
      .innerJoin('nodes', 'nodes.id', 'node_group_members.node_id')
      .select(['node_group_members.node_id', 'node_group_members.group_id'])
      .where(column, '=', id)
      .orderBy('node_group_members.group_id')
      .execute(),
  ]);

/** Unscoped: the demo client's node named `name`, with its zone; undefined when there is none. */
export const demoClientNode = (db: Db, clientEmail: string, name: string) =>
  db
    .selectFrom('nodes')
    .innerJoin('zones', 'zones.id', 'nodes.zone_id')
    .innerJoin('accounts', 'accounts.id', 'nodes.client_id')
    .select(['nodes.id as nodeId', 'nodes.initialized_at as initializedAt', 'zones.id as zoneId', 'zones.settings', 'accounts.id as clientId'])
    .where('accounts.email', '=', clientEmail)
    .where('accounts.auth', '=', 'client')
    .where('nodes.name', '=', name)
    .executeTakeFirst();

/** Unscoped, for enrolment: the node whose enrolment token has this hash. */
export const nodeByEnrolToken = (db: Db, tokenHash: string) => db.selectFrom('nodes').selectAll().where('enroll_token_hash', '=', tokenHash).executeTakeFirst();

/** Unscoped, for reports: the node's health columns and applied revision, with its zone's revision and the one its resolutions reflect. */
/** Unscoped, for the agents' reports: what a report is weighed against, of each node named (a node gone is left out). */
export const nodesBeforeReport = (db: Db, nodeIds: number[]) =>
  db
    .selectFrom('nodes')
    .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'nodes.zone_id')
    .leftJoin('dns_resolution_zones as computed', 'computed.zone_id', 'nodes.zone_id')
    .select(['nodes.id', 'nodes.monitor', 'nodes.applied_revision', 'nodes.enabled', 'nodes.virtual', 'nodes.initialized_at', 'nodes.resolvable', 'zone_revisions.revision', 'zone_revisions.revision_at', 'computed.revision as computed'])
    .where('nodes.id', 'in', nodeIds)
    .execute();

/** What a node's report changes of its row. */
export type ReportValues = Required<Pick<Updateable<NodeTable>, 'report' | 'version' | 'applied_revision' | 'apply_error' | 'monitor_breach' | 'last_report_at'>>;

/**
 * Unscoped, for the agents' reports: each node's row changed as its report says, in one statement (the rows in id
 * order). VALUES names its columns column1… alike on SQLite and PostgreSQL.
 */
export const recordAgentReports = async (db: Db, changes: { nodeId: number; values: ReportValues }[]) => {
  if (!changes.length) return;
  const rows = [...changes]
    .sort((a, b) => a.nodeId - b.nodeId)
    .map(({ nodeId, values: v }) => sql`(${nodeId}, ${v.report}, ${v.version}, ${v.applied_revision}, ${v.apply_error}, ${v.monitor_breach}, ${v.last_report_at})`);
  await sql`UPDATE nodes SET report = v.column2, version = v.column3, applied_revision = CAST(v.column4 AS INTEGER), apply_error = v.column5,
      monitor_breach = v.column6, last_report_at = v.column7
    FROM (VALUES ${sql.join(rows)}) AS v WHERE nodes.id = CAST(v.column1 AS INTEGER)`.execute(db);
};

/** Unscoped, for the agent: changes the node its credential names (its enrolment, its last report). */
export const updateAgentNode = (db: Db, nodeId: number, values: Updateable<NodeTable>) => db.updateTable('nodes').set(values).where('id', '=', nodeId).execute();

/** Unscoped, for the agents' calls: the node whose credential has this hash. */
export const nodeByCredential = (db: Db, credentialHash: string) => db.selectFrom('nodes').select(['id', 'zone_id']).where('credential_hash', '=', credentialHash).executeTakeFirst();
