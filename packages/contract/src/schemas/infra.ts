import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { COMMAND_KINDS, diskFull, nodeGeneva, nodeMonitor } from '../edge/agent-protocol';
import { id, idParam } from './account';
import { ids } from './accounts';

export * from './node-extras';
export * from './zone-settings';

const memo = z.string().max(TEXT_FIELD_MAX);

export const zoneItem = z.object({
  id: z.number(),
  name: z.string(),
  regions: z.string(),
  memo: z.string(),
  nodeCount: z.number(),
  revision: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const zonesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });
export const zoneName = displayName(64);
export const createZoneBody = z.object({ name: zoneName, regions: z.string().max(TEXT_FIELD_MAX).default(''), memo: memo.default('') });
export const updateZoneBody = z.object({ id, name: zoneName.optional(), regions: z.string().max(TEXT_FIELD_MAX).optional(), memo: memo.optional() });
export const zoneRef = z.object({ id });
export const zoneParams = z.object({ zoneID: idParam });
export const clientParams = z.object({ clientId: idParam });
export const zoneAssignment = z.object({ zoneIDs: z.array(id).max(1000) });

export const NODE_STATUSES = ['paused', 'unknown', 'normal', 'error', 'offline', 'reconnect'] as const;
export const nodeItem = z.object({
  id: z.number(),
  nodeUID: z.string(),
  zoneID: z.number(),
  zoneName: z.string(),
  name: z.string(),
  ip: z.string(),
  type: z.enum(['edge', 'relay']),
  virtual: z.boolean(),
  role: z.enum(['main', 'backup']),
  portType: z.union([z.literal(7), z.literal(4)]),
  bandwidth: z.number(),
  cacheCapacity: z.number(),
  memo: z.string(),
  enabled: z.boolean(),
  initialized: z.boolean(),
  status: z.enum(NODE_STATUSES),
  version: z.string().nullable(),
  appliedRevision: z.number().nullable(),
  revision: z.number(),
  applyError: z.string().nullable(),
  lastReportAt: z.string().nullable(),
  monitor: nodeMonitor,
  /** Why the node's last report breaches its monitor thresholds (status error), or null. */
  monitorBreach: z.string().nullable(),
  geneva: nodeGeneva,
  /** The Geneva setting the node's agent last reported holding; null before it reported one. */
  genevaReported: nodeGeneva.nullable(),
  /** The node's last report says its own files cannot be written (agent-protocol diskFull); null when they can. */
  diskFull: diskFull.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const nodesQuery = pageQuery.extend({
  zoneID: idParam.optional(),
  keyword: z.string().max(TEXT_FIELD_MAX).optional(),
  status: z.enum(NODE_STATUSES).optional(),
});
const nodeFields = {
  name: displayName(64),
  ip: z.union([z.ipv4(), z.ipv6()]),
  type: z.enum(['edge', 'relay']).default('edge'),
  virtual: z.boolean().default(false),
  role: z.enum(['main', 'backup']).default('main'),
  portType: z.union([z.literal(7), z.literal(4)]).default(7),
  /** Mbps. */
  bandwidth: z.number().int().min(0).max(10_000_000).default(0),
  /** MB; 0 uses the zone's setting. */
  cacheCapacity: z.number().int().min(0).max(100_000_000).default(0),
  memo: memo.default(''),
};
export const createNodeBody = z.object({ zoneID: id, ...nodeFields });
export const updateNodeBody = z.object({
  id,
  name: nodeFields.name.optional(),
  ip: nodeFields.ip.optional(),
  role: z.enum(['main', 'backup']).optional(),
  bandwidth: z.number().int().min(0).max(10_000_000).optional(),
  cacheCapacity: z.number().int().min(0).max(100_000_000).optional(),
  memo: memo.optional(),
});
export const nodeParams = z.object({ id: idParam });
export const nodeRef = z.object({ id });
export const idsBody = z.object({ ids });
export const nodeStatusBody = z.object({ ids, enabled: z.boolean() });
export const moveNodesBody = z.object({ ids, zoneID: id });
export const memoBody = z.object({ ids, memo });
export const enrolment = z.object({
  nodeID: z.number(),
  /** One-time: the agent trades it for its credentials at first contact. Shown once. */
  token: z.string(),
  expiresAt: z.string(),
  /** The one line to run on the node. */
  command: z.string(),
});
export const nodeSystem = z.object({
  reportedAt: z.string().nullable(),
  cpuPercent: z.number().nullable(),
  memory: z.object({ totalBytes: z.number(), usedBytes: z.number() }).nullable(),
  disk: z.object({ totalBytes: z.number(), usedBytes: z.number() }).nullable(),
  network: z.object({ rxBytes: z.number(), txBytes: z.number() }).nullable(),
  loadAverage: z.array(z.number()),
  uptimeSeconds: z.number().nullable(),
  /** As the node item's diskFull. */
  diskFull: diskFull.nullable(),
});
export const nodeCommandBody = z.object({
  kind: z.enum(COMMAND_KINDS),
  /** clearUrlCache: one URL per line. */
  urls: z.array(z.url().max(2048)).max(1000).optional(),
});
export const nodeCommandItem = z.object({
  id: z.number(),
  kind: z.enum(COMMAND_KINDS),
  status: z.enum(['queued', 'sent', 'done', 'failed']),
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
