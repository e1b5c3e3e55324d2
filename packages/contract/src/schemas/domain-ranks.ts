import { z } from 'zod';
import { idParam } from './account';
import { pageQuery } from '../paging';

/** The columns the domain ranking sorts by (spec §3 domain rank row). */
export const DOMAIN_RANK_SORTS = ['traffic', 'reqCount'] as const;

/** A time filter: ISO-8601 or unix seconds. */
const instant = z.union([
  z.string().regex(/^\d{1,12}$/).transform((s) => new Date(Number(s) * 1000)),
  z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO-8601 time or unix seconds').transform((s) => new Date(s)),
]);

/** The window defaults to the current calendar month (UTC). */
export const domainRanksQuery = pageQuery.extend({
  sortBy: z.enum(DOMAIN_RANK_SORTS).optional(),
  siteID: idParam.optional(),
  startTime: instant.optional(),
  endTime: instant.optional(),
}).refine((q) => !q.startTime || !q.endTime || q.endTime > q.startTime, { path: ['endTime'], message: 'endTime must be after startTime' });

/** One domain's traffic in the window, from the 5-minute rollups of what the edge served. */
export const domainRankItem = z.object({
  /** `siteID:domain`, stable across pages. */
  key: z.string(),
  domain: z.string(),
  siteID: z.number(),
  /** Bytes sent to clients. */
  traffic: z.number(),
  reqCount: z.number(),
});
export type DomainRank = z.infer<typeof domainRankItem>;
