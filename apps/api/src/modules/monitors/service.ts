import { Codes, type monitorSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { clientOf } from '../zones/service';
import { probe } from './probe';
import { notify } from '../notifications/events';
import { claimMonitor, enabledMonitors, monitorsRepo, pauseNode, recordProbe, type MonitorRow } from './repo';

type UpdateBody = z.infer<typeof monitorSchemas.updateMonitorBody>;

const PROBE_TIMEOUT_MS = 5000;
const DEFAULTS = { type: 'status', url: '{host}/', port: 80, status_code: '200', content: '', interval: 60, failure_action: 'none' } as const;

const toItem = (m: MonitorRow) => ({
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
  const page = await monitorsRepo(deps, await clientOf(deps, principal)).page(query, groupId);
  return { data: page.data.map(toItem), total: page.total };
}

export async function metaMonitors(deps: AppDeps, principal: Principal) {
  const rows = await monitorsRepo(deps, await clientOf(deps, principal)).all();
  return rows.map((m) => ({ id: m.id, name: m.node_name }));
}

/** Ordinary nodes (not virtual) of the actor's zones without a monitor. */
export async function notInitialized(deps: AppDeps, principal: Principal, query: z.infer<typeof monitorSchemas.monitorsQuery>) {
  const page = await monitorsRepo(deps, await clientOf(deps, principal)).unmonitored(query);
  return { data: page.data.map((n) => ({ id: n.id, name: n.name, ip: n.ip, zoneID: n.zone_id })), total: page.total };
}

export async function initMonitors(deps: AppDeps, principal: Principal, nodeIds: number[]) {
  const monitors = monitorsRepo(deps, await clientOf(deps, principal));
  const nodes = await monitors.ownNodes(nodeIds);
  if (nodes.length !== new Set(nodeIds).size) throw notFound('node');
  const existing = await monitors.firstOf(nodes);
  if (existing) throw new ApiError(Codes.Duplicated, { extra: { nodeID: existing.node_id } });
  await monitors.insert(nodes, { ...DEFAULTS, enabled: 1, status: 0 });
}

export async function owned(deps: AppDeps, principal: Principal, ids: number[]) {
  const repo = monitorsRepo(deps, await clientOf(deps, principal));
  return { repo, rows: await repo.owned(ids) };
}

/** A changed probe starts again from unknown and runs at the next tick. */
export async function updateMonitor(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const { repo, rows } = await owned(deps, principal, [body.id]);
  await repo.update(rows, {
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
  });
  return toItem(await repo.get(body.id));
}

export async function removeMonitors(deps: AppDeps, principal: Principal, ids: number[]) {
  const { repo, rows } = await owned(deps, principal, ids);
  await repo.remove(rows);
}

export async function enableMonitors(deps: AppDeps, principal: Principal, ids: number[], enabled: boolean) {
  const { repo, rows } = await owned(deps, principal, ids);
  await repo.update(rows, { enabled: enabled ? 1 : 0, ...(enabled ? {} : { status: 0, checked_at: null }) });
}

/**
 * Probes every enabled monitor whose interval has passed, records normal (1) or error (2), and pauses the node
 * of a failing monitor whose failure action is pause. Answers how many probes ran.
 */
export async function runDueMonitors(deps: AppDeps, at = Date.now()) {
  const rows = await enabledMonitors(deps.db);
  const due = rows.filter((m) => m.checked_at === null || Date.parse(m.checked_at) + m.interval * 1000 <= at);
  const stamp = new Date(at).toISOString();
  const probed = await Promise.all(
    due.map(async (m) => {
      if (!(await claimMonitor(deps.db, m, stamp))) return false;
      const error = await probe({ type: m.type, host: m.ip, url: m.url, port: m.port, statusCode: m.status_code, content: m.content, timeoutMs: PROBE_TIMEOUT_MS });
      await recordProbe(deps.db, m.id, error);
      if (error && m.status !== 2) await notify(deps, { kind: 'monitor.failure', accountId: m.node_client_id, subject: m.node_name, details: { monitor: m.id, error } });
      if (error && m.failure_action === 'pause' && m.node_enabled === 1) {
        await pauseNode(deps.db, m.node_id);
        await deps.revisions.bump(deps.db, [m.zone_id]);
      }
      return true;
    }),
  );
  return probed.filter(Boolean).length;
}
