import crypto from 'node:crypto';
import { agentProtocol, Codes, type infraSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { inSeconds } from '../../db';
import type { AppDeps } from '../../deps';
import { forgetNodeCredentials, type Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { agentVersion, installCommand } from '../../lib/agent-package';
import type { Account } from '../accounts/repo';
import { assertCanCreate } from '../licenses/limits';
import { assertNotInVirtualNode } from '../virtual-nodes/service';
import { zonesRepo } from '../zones/repo';
import { clientOf } from '../zones/service';
import { genevaOf, isFresh, monitorOf, OFFLINE_AFTER_SECONDS } from '../resolutions/health';
import { refreshResolutions } from '../resolutions/service';
import { assertSubNodesMovable } from './addresses';
import { readJson } from '../../db/json-column';
import { nodesRepo, type NodeRow } from './repo';

export { OFFLINE_AFTER_SECONDS };
const ENROL_TOKEN_SECONDS = 24 * 3600;

type NodeStatus = (typeof infraSchemas.NODE_STATUSES)[number];

/** A node's status comes from its agent's reports and their absence, never from a field anyone sets. */
export function statusOf(n: Pick<NodeRow, 'enabled' | 'initialized_at' | 'last_report_at' | 'apply_error' | 'monitor_breach'>, at = Date.now()): NodeStatus {
  if (!n.enabled) return 'paused';
  if (!n.initialized_at || !n.last_report_at) return 'unknown';
  if (!isFresh(n, at)) return 'offline';
  return n.apply_error || n.monitor_breach ? 'error' : 'normal';
}

/** A node's last report as nodes.report keeps it (what the agent sent, checked by the report's route). */
export const readReport = (report: string) => readJson('nodes.report', agentProtocol.report, report);
const reported = (report: string | null): Partial<agentProtocol.Report> => (report ? readReport(report) : {});

export const toItem = (n: NodeRow) => {
  const report = reported(n.report);
  return {
    id: n.id,
    nodeUID: n.node_uid,
    zoneID: n.zone_id,
    zoneName: n.zone_name,
    name: n.name,
    ip: n.ip,
    type: n.type,
    virtual: n.virtual === 1,
    role: n.role,
    portType: n.port_type,
    bandwidth: n.bandwidth,
    cacheCapacity: n.cache_capacity,
    memo: n.memo,
    enabled: n.enabled === 1,
    initialized: n.initialized_at !== null,
    status: statusOf(n),
    version: n.version,
    appliedRevision: n.applied_revision,
    revision: n.zone_revision,
    applyError: n.apply_error,
    lastReportAt: n.last_report_at,
    monitor: monitorOf(n),
    monitorBreach: n.monitor_breach,
    geneva: genevaOf(n),
    genevaReported: report.geneva ?? null,
    // agents before the field report none: read as null
    diskFull: report.diskFull ?? null,
    createdAt: n.created_at,
    updatedAt: n.updated_at,
  };
};

export async function listNodes(deps: AppDeps, principal: Principal, query: z.infer<typeof infraSchemas.nodesQuery>) {
  const page = await nodesRepo(deps, await clientOf(deps, principal)).page(query);
  return { data: page.data.map(toItem), total: page.total };
}

export const visibleNode = (deps: AppDeps, actor: Account, id: number) => nodesRepo(deps, actor).get(id);

/** Nodes the caller may change: each is in a zone the caller owns. */
export async function ownedNodes(deps: AppDeps, principal: Principal, ids: number[]) {
  const actor = await clientOf(deps, principal);
  const repo = nodesRepo(deps, actor);
  return { actor, repo, nodes: await repo.owned(ids) };
}

type CreateBody = z.infer<typeof infraSchemas.createNodeBody>;
export async function createNode(deps: AppDeps, principal: Principal, body: CreateBody) {
  const actor = await clientOf(deps, principal);
  const zone = await zonesRepo(deps, actor).owned(body.zoneID);
  await assertCanCreate(deps, { clientId: zone.client_id, kind: 'node', layer: body.portType });
  const nodes = nodesRepo(deps, actor);
  const id = await nodes.insert(zone, {
      node_uid: `${body.virtual ? 'v' : 'n'}-${crypto.randomBytes(5).toString('hex')}`,
      name: body.name,
      ip: body.ip,
      type: body.type,
      virtual: body.virtual ? 1 : 0,
      role: body.role,
      port_type: body.portType,
      bandwidth: body.bandwidth,
      cache_capacity: body.cacheCapacity,
      memo: body.memo,
      enabled: 1,
    });
  return toItem(await nodes.get(id));
}

type UpdateBody = z.infer<typeof infraSchemas.updateNodeBody>;
export async function updateNode(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const { repo, nodes } = await ownedNodes(deps, principal, [body.id]);
  const { id, cacheCapacity, ...rest } = body;
  await repo.update(nodes, { ...rest, ...(cacheCapacity === undefined ? {} : { cache_capacity: cacheCapacity }) });
  // The cache capacity sizes the node's proxy cache: its zone's nodes get a new revision to apply.
  if (cacheCapacity !== undefined && cacheCapacity !== nodes[0].cache_capacity) await deps.revisions.bump(deps.db, [nodes[0].zone_id]);
  await refreshResolutions(deps, [nodes[0].zone_id]);
  return toItem(await repo.get(id));
}

export async function removeNodes(deps: AppDeps, principal: Principal, ids: number[]) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  const grouped = await repo.firstGrouped(nodes);
  if (grouped) throw new ApiError(Codes.NodeInGroup, { extra: { nodeID: grouped.node_id } });
  await assertNotInVirtualNode(deps, ids);
  await repo.remove(nodes);
  await forgetNodeCredentials(deps, nodes.map((n) => n.zone_id));
  await refreshResolutions(deps, nodes.map((n) => n.zone_id));
}

/** A one-time token the agent trades for its credentials; issuing a new one makes the old one useless. */
export async function initializeNode(deps: AppDeps, principal: Principal, id: number) {
  const { repo, nodes } = await ownedNodes(deps, principal, [id]);
  const token = randomToken(24);
  const expiresAt = inSeconds(ENROL_TOKEN_SECONDS);
  await repo.update(nodes, { enroll_token_hash: sha256(token), enroll_expires_at: expiresAt });
  return { nodeID: nodes[0].id, token, expiresAt, command: installCommand(deps.config.publicUrl, token) };
}

/** Revokes the agents' credentials: their next call is refused, and the nodes must enrol again. */
export async function deinitializeNodes(deps: AppDeps, principal: Principal, ids: number[]) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  await repo.update(nodes, { credential_hash: null, initialized_at: null, enroll_token_hash: null, enroll_expires_at: null });
  await forgetNodeCredentials(deps, nodes.map((n) => n.zone_id));
  await refreshResolutions(deps, nodes.map((n) => n.zone_id));
}

export async function setNodesEnabled(deps: AppDeps, principal: Principal, ids: number[], enabled: boolean) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  await repo.update(nodes, { enabled: enabled ? 1 : 0 });
  await refreshResolutions(deps, nodes.map((n) => n.zone_id));
}

export async function setNodesMemo(deps: AppDeps, principal: Principal, ids: number[], memo: string) {
  const { repo, nodes } = await ownedNodes(deps, principal, ids);
  await repo.update(nodes, { memo });
}

/** Moves nodes to another zone: both zones take a new revision, so the agents fetch the new zone's state. */
export async function moveNodes(deps: AppDeps, principal: Principal, ids: number[], zoneId: number) {
  const { actor, repo, nodes } = await ownedNodes(deps, principal, ids);
  const zone = await zonesRepo(deps, actor).owned(zoneId);
  await assertSubNodesMovable(deps, ids, zoneId);
  await repo.move(nodes, zone);
  await forgetNodeCredentials(deps, nodes.map((n) => n.zone_id));
  const zones = [...new Set([zoneId, ...nodes.map((n) => n.zone_id)])];
  await deps.revisions.bump(deps.db, zones);
  await refreshResolutions(deps, zones);
}

export async function nodeSystem(deps: AppDeps, principal: Principal, id: number) {
  const node = await visibleNode(deps, await clientOf(deps, principal), id);
  const r = node.report ? readReport(node.report) : undefined;
  return {
    reportedAt: node.last_report_at,
    cpuPercent: r?.cpuPercent ?? null,
    memory: r?.memory ?? null,
    disk: r?.disk ?? null,
    network: r?.network ?? null,
    loadAverage: r?.loadAverage ?? [],
    uptimeSeconds: r?.uptimeSeconds ?? null,
    diskFull: r?.diskFull ?? null,
  };
}

type CommandRow = { id: number; kind: string; status: 'queued' | 'sent' | 'done' | 'failed'; message: string | null; created_at: string; finished_at: string | null };
const toCommand = (c: CommandRow) => ({
  id: c.id,
  kind: c.kind as z.infer<typeof infraSchemas.nodeCommandItem>['kind'],
  status: c.status,
  message: c.message,
  createdAt: c.created_at,
  finishedAt: c.finished_at,
});

/** What the agent needs to run an action: the URLs to purge, or the package to upgrade to. */
function argsOf(deps: AppDeps, body: z.infer<typeof infraSchemas.nodeCommandBody>) {
  if (body.kind === 'clearUrlCache') return { urls: body.urls };
  if (body.kind === 'upgrade') return { version: agentVersion(), url: `${deps.config.publicUrl}/agent/package.tgz` };
  return {};
}

export async function queueCommand(deps: AppDeps, principal: Principal, id: number, body: z.infer<typeof infraSchemas.nodeCommandBody>) {
  const {
    repo,
    nodes: [node],
  } = await ownedNodes(deps, principal, [id]);
  if (body.kind === 'clearUrlCache' && !body.urls?.length) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'urls', message: 'Required Field!' }] } });
  }
  const row = await repo.queueCommand(node, { kind: body.kind, args: JSON.stringify(argsOf(deps, body)), status: 'queued', created_by: principal.accountId });
  // the node's watch answers at once and says an action waits
  await deps.revisions.wake(deps.db, [node.zone_id]);
  return toCommand(row);
}

export async function listCommands(deps: AppDeps, principal: Principal, id: number) {
  const repo = nodesRepo(deps, await clientOf(deps, principal));
  const rows = await repo.commands(await repo.get(id));
  return rows.map(toCommand);
}
