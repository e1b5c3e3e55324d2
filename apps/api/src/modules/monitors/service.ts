import { Codes, type monitorSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import type { Account } from '../accounts/repo';
import { clientOf, visibleZones } from '../zones/service';
import { probe } from './probe';
import { notify } from '../notifications/events';

type UpdateBody = z.infer<typeof monitorSchemas.updateMonitorBody>;

const PROBE_TIMEOUT_MS = 5000;
const DEFAULTS = { type: 'status', url: '{host}/', port: 80, status_code: '200', content: '', interval: 60, failure_action: 'none' } as const;

/** Monitors of nodes in the zones the actor sees; `own` narrows to the zones it owns (to change them). */
const monitorsOf = (deps: AppDeps, actor: Account, own = false) => {
  const q = deps.db
    .selectFrom('monitors')
    .innerJoin('nodes', 'nodes.id', 'monitors.node_id')
    .selectAll('monitors')
    .select(['nodes.name as node_name', 'nodes.ip as node_ip', 'nodes.enabled as node_enabled', 'nodes.zone_id'])
    .where('nodes.zone_id', 'in', visibleZones(deps, actor).select('zones.id'));
  return own ? q.where('nodes.client_id', '=', actor.id) : q;
};
type Row = Awaited<ReturnType<ReturnType<typeof monitorsOf>['executeTakeFirstOrThrow']>>;

const toItem = (m: Row) => ({
  id: m.id,
  nodeID: m.node_id,
  nodeName: m.node_name,
  nodeIP: m.node_ip,
  nodeEnabled: m.node_enabled === 1,
  zoneID: m.zone_id,
  type: m.type,
  url: m.url,
  port: m.port,
  statusCode: m.status_code,
  content: m.content,
  interval: m.interval,
  failureAction: m.failure_action,
  enabled: m.enabled === 1,
  status: m.status,
  lastError: m.last_error,
  checkedAt: m.checked_at,
  updatedAt: m.updated_at,
});

/** `groupId`: only the monitors of that group. */
export async function listMonitors(deps: AppDeps, principal: Principal, query: z.infer<typeof monitorSchemas.monitorsQuery>, groupId?: number) {
  const actor = await clientOf(deps, principal);
  let q = monitorsOf(deps, actor);
  if (groupId !== undefined) q = q.where('monitors.id', 'in', deps.db.selectFrom('monitor_group_members').select('monitor_id').where('group_id', '=', groupId));
  const page = await paginate(q, {
    page: query,
    sortable: { nodeName: 'nodes.name', status: 'monitors.status', type: 'monitors.type', updatedAt: 'monitors.updated_at' },
    defaultSort: { column: 'monitors.created_at', order: 'desc' },
    idColumn: 'monitors.id',
  });
  return { data: page.data.map(toItem), total: page.total };
}

export async function metaMonitors(deps: AppDeps, principal: Principal) {
  const rows = await monitorsOf(deps, await clientOf(deps, principal)).orderBy('nodes.name').execute();
  return rows.map((m) => ({ id: m.id, name: m.node_name }));
}

/** Ordinary nodes (not virtual) of the actor's zones without a monitor. */
export async function notInitialized(deps: AppDeps, principal: Principal, query: z.infer<typeof monitorSchemas.monitorsQuery>) {
  const actor = await clientOf(deps, principal);
  const q = deps.db
    .selectFrom('nodes')
    .select(['nodes.id', 'nodes.name', 'nodes.ip', 'nodes.zone_id'])
    .where('nodes.zone_id', 'in', visibleZones(deps, actor).select('zones.id'))
    .where('nodes.virtual', '=', 0)
    .where('nodes.id', 'not in', deps.db.selectFrom('monitors').select('node_id'));
  const page = await paginate(q, { page: query, sortable: { name: 'nodes.name' }, defaultSort: { column: 'nodes.name', order: 'asc' }, idColumn: 'nodes.id' });
  return { data: page.data.map((n) => ({ id: n.id, name: n.name, ip: n.ip, zoneID: n.zone_id })), total: page.total };
}

export async function initMonitors(deps: AppDeps, principal: Principal, nodeIds: number[]) {
  const actor = await clientOf(deps, principal);
  const nodes = await deps.db
    .selectFrom('nodes')
    .select(['id'])
    .where('id', 'in', nodeIds)
    .where('client_id', '=', actor.id)
    .where('virtual', '=', 0)
    .where('zone_id', 'in', visibleZones(deps, actor).select('zones.id'))
    .execute();
  if (nodes.length !== new Set(nodeIds).size) throw notFound('node');
  const existing = await deps.db.selectFrom('monitors').select('node_id').where('node_id', 'in', nodeIds).executeTakeFirst();
  if (existing) throw new ApiError(Codes.Duplicated, { extra: { nodeID: existing.node_id } });
  const at = now();
  await deps.db
    .insertInto('monitors')
    .values(nodes.map((n) => ({ node_id: n.id, ...DEFAULTS, enabled: 1 as const, status: 0, created_at: at, updated_at: at })))
    .execute();
}

export async function owned(deps: AppDeps, principal: Principal, ids: number[]) {
  const actor = await clientOf(deps, principal);
  const rows = await monitorsOf(deps, actor, true).where('monitors.id', 'in', ids).execute();
  if (rows.length !== new Set(ids).size) throw notFound('monitor');
  return { actor, rows };
}

/** A changed probe starts again from unknown and runs at the next tick. */
export async function updateMonitor(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const { actor } = await owned(deps, principal, [body.id]);
  await deps.db
    .updateTable('monitors')
    .set({
      type: body.type,
      url: body.url,
      port: body.port,
      status_code: body.statusCode,
      content: body.content,
      interval: body.interval,
      failure_action: body.failureAction,
      status: 0,
      last_error: null,
      checked_at: null,
      updated_at: now(),
    })
    .where('id', '=', body.id)
    .execute();
  return toItem(await monitorsOf(deps, actor).where('monitors.id', '=', body.id).executeTakeFirstOrThrow());
}

export async function removeMonitors(deps: AppDeps, principal: Principal, ids: number[]) {
  await owned(deps, principal, ids);
  await deps.db.deleteFrom('monitors').where('id', 'in', ids).execute();
}

export async function enableMonitors(deps: AppDeps, principal: Principal, ids: number[], enabled: boolean) {
  await owned(deps, principal, ids);
  await deps.db
    .updateTable('monitors')
    .set({ enabled: enabled ? 1 : 0, ...(enabled ? {} : { status: 0, checked_at: null }), updated_at: now() })
    .where('id', 'in', ids)
    .execute();
}

/**
 * Probes every enabled monitor whose interval has passed, records normal (1) or error (2), and pauses the node
 * of a failing monitor whose failure action is pause. Answers how many probes ran.
 */
export async function runDueMonitors(deps: AppDeps, at = Date.now()) {
  const rows = await deps.db
    .selectFrom('monitors')
    .innerJoin('nodes', 'nodes.id', 'monitors.node_id')
    .selectAll('monitors')
    .select(['nodes.ip', 'nodes.enabled as node_enabled', 'nodes.zone_id', 'nodes.client_id as node_client_id', 'nodes.name as node_name'])
    .where('monitors.enabled', '=', 1)
    .execute();
  const due = rows.filter((m) => m.checked_at === null || Date.parse(m.checked_at) + m.interval * 1000 <= at);
  const stamp = new Date(at).toISOString();
  const probed = await Promise.all(
    due.map(async (m) => {
      // API instances share the database: the one whose claim moves checked_at probes, the others leave it.
      const claim = await deps.db
        .updateTable('monitors')
        .set({ checked_at: stamp })
        .where('id', '=', m.id)
        .where((eb) => (m.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', m.checked_at)))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false;
      const error = await probe({ type: m.type, host: m.ip, url: m.url, port: m.port, statusCode: m.status_code, content: m.content, timeoutMs: PROBE_TIMEOUT_MS });
      await deps.db
        .updateTable('monitors')
        .set({ status: error ? 2 : 1, last_error: error })
        .where('id', '=', m.id)
        .execute();
      if (error && m.status !== 2) await notify(deps, { kind: 'monitor.failure', accountId: m.node_client_id, subject: m.node_name, details: { monitor: m.id, error } });
      if (error && m.failure_action === 'pause' && m.node_enabled === 1) {
        await deps.db.updateTable('nodes').set({ enabled: 0, updated_at: now() }).where('id', '=', m.node_id).execute();
        await deps.revisions.bump(deps.db, [m.zone_id]);
      }
      return true;
    }),
  );
  return probed.filter(Boolean).length;
}
