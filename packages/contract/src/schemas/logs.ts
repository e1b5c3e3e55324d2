import { z } from 'zod';
import { id, idParam } from './account';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { timeInput } from './accounts';

/** Spec §5: a log query spans at most one day. */
export const LOG_QUERY_MAX_SPAN_MS = 24 * 3600_000;
/** Spec §9/§8: at most this many exports processing at once per account (601001). */
export const LOG_EXPORT_CONCURRENT_MAX = 3;
/** The daily export count (601002, per account's maxLogExportTimes) resets at this hour, UTC. */
export const LOG_EXPORT_RESET_HOUR_UTC = 0;
/** Spec §4 Export file states. */
export const EXPORT_STATUSES = ['processing', 'completed', 'deleting', 'deleted', 'failed'] as const;
export const EXPORT_TYPES = ['access', 'waf', 'audit'] as const;

const spanCheck = (q: { startTime: string; endTime: string }, ctx: z.RefinementCtx) => {
  const span = Date.parse(q.endTime) - Date.parse(q.startTime);
  if (span <= 0) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'endTime must be after startTime' });
  else if (span > LOG_QUERY_MAX_SPAN_MS) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'a log query spans at most one day' });
};

/** Spec §3 Log query. */
const logFilterFields = z.object({
  startTime: timeInput,
  endTime: timeInput,
  siteIDs: z.array(id).max(500).optional(),
  domains: z.array(z.string().trim().min(1).max(253)).max(500).optional(),
  remoteIP: z.string().trim().max(64).optional(),
  cacheStatus: z.string().trim().max(32).optional(),
  /** A part of the request URI. */
  uri: z.string().max(TEXT_FIELD_MAX).optional(),
  status: z.coerce.number().int().min(0).max(999).optional(),
});
export const logQuery = logFilterFields
  .extend({ page: pageQuery.shape.page, pageSize: pageQuery.shape.pageSize })
  .superRefine(spanCheck);
export type LogQuery = z.infer<typeof logQuery>;
export type LogFilter = z.infer<typeof logFilterFields>;

/** One access line as the edge logged it, newest first. */
export const accessLogItem = z.object({
  time: z.string(),
  requestId: z.string(),
  siteID: z.number(),
  domain: z.string(),
  nodeID: z.number(),
  remoteIP: z.string(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  isp: z.string(),
  asn: z.string(),
  protocol: z.string(),
  method: z.string(),
  uri: z.string(),
  status: z.number(),
  bytesSent: z.number(),
  bytesReceived: z.number(),
  requestTime: z.number(),
  upstreamTime: z.number().nullable(),
  cacheStatus: z.string(),
  httpVersion: z.string(),
  referer: z.string(),
  userAgent: z.string(),
});
/** A line the edge refused, with what refused it: the cause (rule kind), the module and rule, and the action. */
export const wafLogItem = accessLogItem.extend({
  cause: z.string(),
  module: z.string(),
  rule: z.string(),
  action: z.string(),
});

/** POST {tier}/log/export/file: what to export (the log query's filters, or the audit query's for audit). */
export const exportApplyBody = z
  .object({
    type: z.enum(EXPORT_TYPES),
    startTime: timeInput,
    endTime: timeInput,
    siteIDs: logFilterFields.shape.siteIDs,
    domains: logFilterFields.shape.domains,
    remoteIP: logFilterFields.shape.remoteIP,
    cacheStatus: logFilterFields.shape.cacheStatus,
    uri: logFilterFields.shape.uri,
    status: logFilterFields.shape.status,
  })
  .superRefine(spanCheck);
export type ExportApplyBody = z.infer<typeof exportApplyBody>;

/** Spec §3 Export file. */
export const exportItem = z.object({
  id: z.number(),
  type: z.enum(EXPORT_TYPES),
  status: z.enum(EXPORT_STATUSES),
  startTime: z.string(),
  endTime: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Lines written so far, and of how many (known once counted). */
  rows: z.number(),
  totalRows: z.number().nullable(),
  /** Whole percent. */
  progress: z.number(),
  /** Bytes of the gzip file, once completed. */
  size: z.number(),
  fileName: z.string(),
  error: z.string().nullable(),
});
export const EXPORT_SORTS = ['createdAt', 'startTime', 'status', 'type', 'size'] as const;
export const exportsQuery = pageQuery.extend({ sortBy: z.enum(EXPORT_SORTS).optional(), type: z.enum(EXPORT_TYPES).optional() });
export const exportParams = z.object({ ID: idParam });
export const exportIdsBody = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) });
