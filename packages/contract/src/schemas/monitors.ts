import { z } from 'zod';
import { displayName } from './name';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

/** Spec §3: HTTP status code, HTTP content, TCP, ping. */
export const MONITOR_TYPES = ['status', 'content', 'tcp', 'ping'] as const;
/** Spec §4, in order: unknown, normal, error. */
export const MONITOR_STATUSES = ['unknown', 'normal', 'error'] as const;

export const monitorItem = z.object({
  id: z.number(),
  nodeID: z.number(),
  nodeName: z.string(),
  nodeIP: z.string(),
  nodeEnabled: z.boolean(),
  zoneID: z.number(),
  type: z.enum(MONITOR_TYPES),
  url: z.string(),
  port: z.number(),
  statusCode: z.string(),
  content: z.string(),
  interval: z.number(),
  failureAction: z.enum(['none', 'pause']),
  enabled: z.boolean(),
  status: z.number().int().min(0).max(2),
  lastError: z.string().nullable(),
  checkedAt: z.string().nullable(),
  updatedAt: z.string(),
});
/** Spec §5: the URL starts with http:// or {host} (the node's address). */
export const monitorUrl = z.string().trim().max(512).regex(/^(http:\/\/|\{host\})\S*$/, 'must start with http:// or {host}');
export const updateMonitorBody = z
  .object({
    id,
    type: z.enum(MONITOR_TYPES),
    url: monitorUrl.default('{host}/'),
    port: z.number().int().min(1).max(65535).default(80),
    /** Spec §5: three digits. */
    statusCode: z.string().regex(/^\d{3}$/, 'three digits').default('200'),
    content: z.string().max(256).default(''),
    /** Seconds between probes. */
    interval: z.number().int().min(10).max(3600).default(60),
    failureAction: z.enum(['none', 'pause']).default('none'),
  })
  .refine((b) => b.type !== 'content' || b.content.length > 0, { path: ['content'], message: 'the content to look for is required' });
export const initMonitorsBody = z.object({ nodeIDs: ids });
export const monitorIdsBody = z.object({ ids });
export const enableMonitorsBody = z.object({ ids, enabled: z.boolean() });
export const monitorsQuery = pageQuery;
export const notInitItem = z.object({ id: z.number(), name: z.string(), ip: z.string(), zoneID: z.number() });

export const monitorGroupItem = z.object({ id: z.number(), name: z.string(), memo: z.string(), monitorIDs: z.array(z.number()), createdAt: z.string(), updatedAt: z.string() });
export const createMonitorGroupBody = z.object({ name: displayName(64), memo: z.string().max(256).default('') });
export const updateMonitorGroupBody = z.object({ id, name: displayName(64).optional(), memo: z.string().max(256).optional() });
export const monitorGroupParams = z.object({ groupID: idParam });
/** The monitors (monitor ids) added to or removed from a group. */
export const groupMonitorsBody = z.object({ nodeIDs: ids });
