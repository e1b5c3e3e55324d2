import { Codes } from '@edgekeep/contract';
import { sql, type Selectable } from 'kysely';
import { inBatches, now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { ZoneTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { ApiError, notFound } from '../../http/errors';
import type { Account } from '../accounts/repo';
import { DEFAULT_ZONE_SETTINGS, readZoneSettings, type ZoneSettings } from './defaults';

/*
 * The zone aggregate's repository. A client reaches zones only through `zonesRepo(deps, actor)`, whose every query
 * starts from the zones that client sees (its own, or, for a sub-client, those assigned to it): another client's zone
 * answers exactly like a missing one. Only the owner changes a zone (`owned`). What is not a client's (a zone's ports
 * by id, for the sites on it) is a plain function whose comment says it is unscoped.
 */

/** The zones a client sees: its own, or, for a sub-client, those assigned to it. */
export function visibleZones(deps: AppDeps, actor: Account) {
  const q = deps.db.selectFrom('zones');
  return actor.is_root
    ? q.where('zones.client_id', '=', actor.id)
    : q.where('zones.id', 'in', deps.db.selectFrom('zone_assignments').select('zone_id').where('zone_assignments.client_id', '=', actor.id));
}

const withNodeCount = (deps: AppDeps, actor: Account) =>
  visibleZones(deps, actor)
    .innerJoin('zone_revisions', 'zone_revisions.zone_id', 'zones.id')
    .selectAll('zones')
    .select('zone_revisions.revision')
    .select((eb) => eb.selectFrom('nodes').select(eb.fn.countAll().as('n')).whereRef('nodes.zone_id', '=', 'zones.id').as('node_count'));

type ZoneRow = { id: number; name: string; regions: string; memo: string; revision: number; created_at: string; updated_at: string; node_count: unknown };
const toItem = (z: ZoneRow) => ({
  id: z.id,
  name: z.name,
  regions: z.regions,
  memo: z.memo,
  nodeCount: toCount(z.node_count as number),
  revision: z.revision,
  createdAt: z.created_at,
  updatedAt: z.updated_at,
});

export type ZonesQuery = { page: number; pageSize: number; sortBy?: string; orderBy?: 'asc' | 'desc' | 'ascend' | 'descend'; name?: string };
type ZoneFields = { name?: string; regions?: string; memo?: string };

declare const reached: unique symbol;
/** A zone as the client who reached it sees it; only `zonesRepo(…)` makes one. */
export type ReachedZone = Selectable<ZoneTable> & { readonly [reached]: true };

/** The zones a client sees, and the changes to those it owns. */
export function zonesRepo(deps: AppDeps, actor: Account) {
  const db = deps.db;
  const visible = async (zoneId: number) => {
    const zone = await visibleZones(deps, actor).selectAll('zones').where('zones.id', '=', zoneId).executeTakeFirst();
    if (!zone) throw notFound('zone');
    return zone as ReachedZone;
  };
  return {
    /** A zone the client sees, or 101003/404 exactly as if it did not exist. */
    get: visible,

    /** A zone the client owns; a sub-client's assigned zone is refused (101018). */
    async owned(zoneId: number) {
      const zone = await visible(zoneId);
      if (zone.client_id !== actor.id) throw new ApiError(Codes.PermissionDenied, { extra: 'only the owner of the zone changes it' });
      return zone;
    },

    /** The ids of the zones the client sees. */
    ids: async () => (await visibleZones(deps, actor).select('zones.id').execute()).map((z) => z.id),

    async page(query: ZonesQuery) {
      let q = withNodeCount(deps, actor);
      if (query.name) q = q.where('zones.name', 'like', `%${query.name}%`);
      const page = await paginate(q, { page: query, sortable: { name: 'zones.name', createdAt: 'zones.created_at' }, defaultSort: { column: 'zones.created_at', order: 'desc' }, idColumn: 'zones.id' });
      return { data: page.data.map((r) => toItem(r as ZoneRow)), total: page.total };
    },

    names: () => visibleZones(deps, actor).select(['zones.id', 'zones.name']).orderBy('zones.name').execute(),

    async item(zoneId: number) {
      const row = await withNodeCount(deps, actor).where('zones.id', '=', zoneId).executeTakeFirst();
      if (!row) throw notFound('zone');
      return toItem(row as ZoneRow);
    },

    /** Whether another zone of the client (other than `except`) has this name. */
    async nameTaken(name: string, except?: number) {
      let q = db.selectFrom('zones').select('id').where('client_id', '=', actor.id).where('name', '=', name);
      if (except) q = q.where('id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** A new zone of the client with the default settings. */
    async insert(fields: Required<ZoneFields>) {
      const at = now();
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .insertInto('zones')
          .values({ client_id: actor.id, ...fields, settings: JSON.stringify(DEFAULT_ZONE_SETTINGS), created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await tx.insertInto('zone_revisions').values({ zone_id: row.id }).execute();
        return row.id;
      });
    },

    /** Changes an owned zone's fields (those given). */
    update: (zone: ReachedZone, fields: ZoneFields) =>
      db
        .updateTable('zones')
        .set({
          ...(fields.name === undefined ? {} : { name: fields.name }),
          ...(fields.regions === undefined ? {} : { regions: fields.regions }),
          ...(fields.memo === undefined ? {} : { memo: fields.memo }),
          updated_at: now(),
        })
        .where('id', '=', zone.id)
        .execute(),

    /** Stores an owned zone's settings. */
    storeSettings: (zone: ReachedZone, settings: ZoneSettings) =>
      db.updateTable('zones').set({ settings: JSON.stringify(settings), updated_at: now() }).where('id', '=', zone.id).execute(),

    async nodeCount(zone: ReachedZone) {
      const nodes = await db.selectFrom('nodes').select((eb) => eb.fn.countAll().as('n')).where('zone_id', '=', zone.id).executeTakeFirst();
      return toCount(nodes?.n as number);
    },

    remove: (zone: ReachedZone) => db.deleteFrom('zones').where('id', '=', zone.id).execute(),

    /** The layer-4 ports of the sites on an owned zone that are among `ports`. */
    async layer4PortsAmong(zone: ReachedZone, ports: number[]) {
      const rows = await db
        .selectFrom('l4_ports')
        .innerJoin('sites', 'sites.id', 'l4_ports.site_id')
        .innerJoin('products', 'products.id', 'sites.product_id')
        .select('l4_ports.port')
        .where('products.zone_id', '=', zone.id)
        .where('l4_ports.port', 'in', ports)
        .execute();
      return rows.map((r) => r.port);
    },

    /** The zones assigned to a sub-client the caller manages (the service checks that). */
    async assignedTo(clientId: number) {
      const rows = await db.selectFrom('zone_assignments').select('zone_id').where('client_id', '=', clientId).orderBy('zone_id').execute();
      return rows.map((r) => r.zone_id);
    },

    /** Replaces the zones assigned to a sub-client with owned zones. */
    assign: (clientId: number, zones: ReachedZone[]) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('zone_assignments').where('client_id', '=', clientId).execute();
        const ids = [...new Set(zones.map((z) => z.id))];
        if (ids.length) await trx.insertInto('zone_assignments').values(ids.map((zone_id) => ({ zone_id, client_id: clientId }))).execute();
      }),
  };
}

/** Unscoped: the web ports the nodes of a zone listen on. */
export async function zonePortsOf(db: Db, zoneId: number) {
  const zone = await db.selectFrom('zones').select('settings').where('id', '=', zoneId).executeTakeFirstOrThrow();
  return readZoneSettings(zone.settings).ports;
}

/** Unscoped: the client that owns a zone. */
/** Unscoped: the zones the client accounts among `accountIds` own. */
export const zonesOfClients = async (db: Db, accountIds: number[]) =>
  (await db.selectFrom('zones').select('id').where('client_id', 'in', accountIds).execute()).map((z) => z.id);

export const zoneOwnerId = async (db: Db, zoneId: number) => (await db.selectFrom('zones').select('client_id').where('id', '=', zoneId).executeTakeFirstOrThrow()).client_id;

/** Unscoped, for the revisions: the next value of the platform-wide revision counter. */
export async function nextRevision(db: Db) {
  const next = await sql<{ value: number }>`update revisions set value = value + 1 where id = 1 returning value`.execute(db);
  return Number(next.rows[0].value);
}

/**
 * Unscoped, for the revisions: gives the zones `revision`. `only.sites`: the change touched those sites alone, which
 * are marked with it (first: a build that reads the zone's new revision finds them marked, agent-gateway/state.ts);
 * without it, every site of the zones counts as changed at it.
 */
export async function markZonesRevised(db: Db, zoneIds: number[], revision: number, only?: { sites: number[] }) {
  for (const ids of inBatches(only?.sites ?? [])) {
    // a site removed by the change has nothing left to mark
    await db
      .insertInto('site_edge_revisions')
      .columns(['site_id', 'revision'])
      .expression((eb) => eb.selectFrom('sites').select((s) => ['sites.id', s.val(revision).as('revision')]).where('sites.id', 'in', ids))
      .onConflict((oc) => oc.column('site_id').doUpdateSet({ revision }))
      .execute();
  }
  const zones = { revision, revision_at: new Date().toISOString() };
  if (zoneIds.length) await db.updateTable('zone_revisions').set(only ? zones : { ...zones, sites_revision: revision }).where('zone_id', 'in', zoneIds).execute();
}

/** Unscoped: the zone's revision, or undefined when there is no such zone. */
export async function zoneRevisionOf(db: Db, zoneId: number) {
  const zone = await db.selectFrom('zone_revisions').select('revision').where('zone_id', '=', zoneId).executeTakeFirst();
  return zone && Number(zone.revision);
}

/**
 * Unscoped (the caller reached the zone, or a site of it): queues one action for every enrolled node of the zone;
 * answers the queued commands.
 */
export async function queueZoneCommand(db: Db, zoneId: number, command: { kind: 'clearCache' | 'clearUrlCache' | 'warmCache'; args: object; createdBy: number }) {
  const nodes = await db.selectFrom('nodes').select('id').where('zone_id', '=', zoneId).where('initialized_at', 'is not', null).execute();
  if (!nodes.length) return [] as { id: number }[];
  const at = now();
  return db
    .insertInto('node_commands')
    .values(nodes.map((n) => ({ node_id: n.id, kind: command.kind, args: JSON.stringify(command.args), status: 'queued' as const, created_by: command.createdBy, created_at: at })))
    .returning('id')
    .execute();
}

/** Unscoped, for the statistics' labels: the names of these nodes. */
export const nodeNames = (db: Db, nodeIds: number[]) => db.selectFrom('nodes').select(['id', 'name']).where('id', 'in', nodeIds).execute();
