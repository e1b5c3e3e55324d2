import { z } from 'zod';
import { id } from './account';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { timeInput } from './accounts';

/**
 * Traffic statistics (spec §3 Statistics filter, §9 defaults). Every number comes from the rollups of the access
 * lines that the edges served; every answer says which window and interval it covers.
 */

/** Preset windows (spec §9 preset ranges, plus the relative windows of the filters). `custom` takes startTime/endTime. */
export const TIME_INTERVALS = [
  'oneHour', 'threeHours', 'sixHours', 'twelveHours', 'oneDay', 'sevenDays', 'thirtyDays',
  'today', 'yesterday', 'thisMonth', 'lastMonth', 'custom',
] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];
/** Relative windows in minutes, ending now. */
export const RELATIVE_WINDOW_MINUTES: Partial<Record<TimeInterval, number>> = {
  oneHour: 60, threeHours: 180, sixHours: 360, twelveHours: 720, oneDay: 1440, sevenDays: 7 * 1440, thirtyDays: 30 * 1440,
};
/** Report intervals (bucket size) in minutes. */
export const REPORT_INTERVALS = [5, 15, 60, 1440] as const;
/** Spec §9: default filter reportInterval 5, timeInterval oneHour, top 10; the statistics screen opens on three hours. */
export const STATISTICS_DEFAULTS = { reportInterval: 5, timeInterval: 'oneHour', top: 10 } as const;
export const STATISTICS_SCREEN_INTERVAL: TimeInterval = 'threeHours';
/** Spec §9: time-series page size. */
export const TIME_SERIES_PAGE_SIZE = 26_784;
/** Spec §9: top sizes (fixed tops 10, country/city 30, WAF 20, L4 5); a top list is at most this long. */
export const TOP_MAX = 100;
/** Windows longer than this read the hourly rollups, whatever interval was asked (the answer says which). */
export const FIVE_MINUTE_ROLLUP_DAYS = 35;

/**
 * The dimensions the rollups keep, each a top list and a group of the list call. `province` is the region of the lines
 * from China (country CN), '' for the others: the China map's provinces.
 */
export const DIMENSIONS = [
  'site', 'domain', 'node', 'status', 'cacheStatus', 'country', 'region', 'province', 'city', 'isp', 'protocol', 'method',
  'httpVersion', 'ipVersion', 'refererHost', 'url', 'clientIp', 'uaFamily', 'blockCause', 'blockRule',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];
/** What a top list or a time series ranks and counts by. */
export const COUNTS_TYPES = ['requests', 'traffic'] as const;
/** Which requests count: all, those served, or those the edge refused (a block cause). */
export const OUTCOMES = ['all', 'allowed', 'blocked'] as const;
/** The geography of a map: by country, or by city (spec `area`). */
export const AREAS = ['country', 'city'] as const;
/** Site type: the port type of the site's product (layer 7, or layers 7 and 4). */
export const SITE_TYPES = ['7', '7+4'] as const;

const ids = z.array(id).max(5000);
const names = z.array(z.string().trim().min(1).max(253)).max(5000);

/** Spec §3 Statistics filter. Empty lists mean everything the caller reaches. */
export const filterFields = z.object({
    reservedZone: ids.optional(),
    reservedSite: ids.optional(),
    reservedSiteType: z.array(z.enum(SITE_TYPES)).max(2).optional(),
    reservedDomain: names.optional(),
    reservedDomainTag: z.array(z.string().trim().min(1).max(TEXT_FIELD_MAX)).max(500).optional(),
    /** Bucket size in minutes. */
    reportInterval: z.union(REPORT_INTERVALS.map((n) => z.literal(n))).default(STATISTICS_DEFAULTS.reportInterval),
    timeInterval: z.enum(TIME_INTERVALS).default(STATISTICS_DEFAULTS.timeInterval),
    /** With timeInterval custom: the window, aligned down to 5 minutes. */
    startTime: timeInput.optional(),
    endTime: timeInput.optional(),
    /** IANA time zone for today, yesterday, thisMonth and lastMonth and for day buckets (default UTC). */
    timeZone: z.string().max(64).refine((tz) => { try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true; } catch { return false; } }, 'an IANA time zone').optional(),
    top: z.coerce.number().int().min(1).max(TOP_MAX).default(STATISTICS_DEFAULTS.top),
    area: z.enum(AREAS).default('country'),
    countsType: z.enum(COUNTS_TYPES).default('requests'),
    outcomes: z.enum(OUTCOMES).default('all'),
});
export const windowCheck = (f: { timeInterval: TimeInterval; startTime?: string; endTime?: string }, ctx: z.RefinementCtx) => {
  if (f.timeInterval !== 'custom') return;
  if (!f.startTime) ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'a custom window needs startTime' });
  if (f.startTime && f.endTime && Date.parse(f.endTime) <= Date.parse(f.startTime))
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'endTime must be after startTime' });
};
export const statisticsFilter = filterFields.superRefine(windowCheck);
export type StatisticsFilter = z.infer<typeof statisticsFilter>;

/** The window an answer covers, after presets, alignment and the rollup's resolution. */
export const statisticsWindow = z.object({
  startTime: z.string(),
  endTime: z.string(),
  /** The bucket size used, in minutes (may be coarser than asked for long windows). */
  reportInterval: z.number(),
  timeZone: z.string(),
});

/** The dashboard cards' keys of spec §3, over the window. Traffic in bytes. */
export const statisticsCards = z.object({
  totalTraffics: z.number(),
  chinaTraffics: z.number(),
  nonChinaTraffics: z.number(),
  totalCache: z.number(),
  reqCount: z.number(),
  chinaReq: z.number(),
  nonChinaReq: z.number(),
  /** Requests that got an answer (all but 444 and 499). */
  respCount: z.number(),
  cacheHits: z.number(),
  /** Requests the edge passed to an origin. */
  upstreamCount: z.number(),
  trafficReceived: z.number(),
  /** Requests refused by a rule of the edge (a block cause), inside and outside China. */
  blocked: z.number(),
  chinaCount: z.number(),
  nonChinaCount: z.number(),
  /** The busiest bucket's average rates. */
  peakBandwidth: z.number(),
  peakQps: z.number(),
});
const counts = z.record(z.string(), z.number());
export const statisticsInfo = z.object({
  window: statisticsWindow,
  cards: statisticsCards,
  /** Requests per status code, method, HTTP version, IP version, protocol and block cause. */
  statusCodes: counts,
  methods: counts,
  httpVersions: counts,
  ipProtocols: counts,
  protocols: counts,
  blockCauses: counts,
});

/** One bucket of a time series: totals, rates (bits/s, requests/s averaged over the bucket) and status classes. */
export const timeSeriesPoint = z.object({
  time: z.string(),
  reqCount: z.number(),
  respCount: z.number(),
  traffic: z.number(),
  cacheHits: z.number(),
  cacheTraffic: z.number(),
  upstreamCount: z.number(),
  blocked: z.number(),
  bandwidth: z.number(),
  qps: z.number(),
  status2xx: z.number(),
  status3xx: z.number(),
  status4xx: z.number(),
  status5xx: z.number(),
});
export const timeSeriesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(TIME_SERIES_PAGE_SIZE).default(TIME_SERIES_PAGE_SIZE),
});
export const timeSeries = z.object({ window: statisticsWindow, data: z.array(timeSeriesPoint), total: z.number().int().min(0) });

/** One value of a dimension with its counts over the window; share is a whole percent of the list's countsType. */
export const statisticsRow = z.object({
  key: z.string(),
  /** A readable name where the key is an id (site and node names). */
  label: z.string(),
  reqCount: z.number(),
  traffic: z.number(),
  cacheHits: z.number(),
  cacheTraffic: z.number(),
  blocked: z.number(),
  share: z.number(),
});
export const topBody = filterFields.extend({ dimensions: z.array(z.enum(DIMENSIONS)).min(1).max(DIMENSIONS.length).optional() }).superRefine(windowCheck);
export type TopBody = z.infer<typeof topBody>;
export const statisticsTop = z.object({
  window: statisticsWindow,
  tops: z.array(z.object({ dimension: z.enum(DIMENSIONS), items: z.array(statisticsRow), total: statisticsRow.omit({ key: true, label: true, share: true }) })),
});

/** The list call (and its CSV export): the window's counts grouped by one dimension, sorted and paged. */
export const LIST_SORTS = ['reqCount', 'traffic', 'cacheHits', 'cacheTraffic', 'blocked', 'key'] as const;
export const listQuery = pageQuery.extend({ sortBy: z.enum(LIST_SORTS).optional() });
export const listBody = filterFields.extend({ groupBy: z.enum(DIMENSIONS).default('domain') }).superRefine(windowCheck);
export type ListBody = z.infer<typeof listBody>;
export const statisticsList = z.object({ window: statisticsWindow, data: z.array(statisticsRow), total: z.number().int().min(0) });

/** POST user/domains/meta: the caller's domains for the filters' pickers. */
export const domainsMetaBody = z.object({ siteIDs: ids.optional(), keyword: z.string().max(TEXT_FIELD_MAX).optional() });
export const domainMeta = z.object({ id: z.number(), domain: z.string(), siteID: z.number() });
/** POST user/domains/tags: the tags on the caller's domains (optionally of some sites), sorted. */
export const domainsTagsBody = z.object({ siteIDs: ids.optional() });
