import { z } from 'zod';
import { filterFields, REPORT_INTERVALS, statisticsWindow, TIME_INTERVALS, TOP_MAX, windowCheck } from './statistics';

/**
 * The security dashboard (spec §7 "Security dashboard requests") and the user dashboard's blacklist and WAF tabs.
 * Every number counts access lines the edges served; a line is refused when the edge noted a block cause for it
 * (its access line's blockCause is not empty), the same reading as the statistics calls' `blocked`.
 */

/**
 * Block types (spec §3 block-type cards, in the order shown: 3, 4, 2, 8, 5, 10, 11, 12) and the edge's block causes
 * each covers, matched exactly or by prefix:
 * - 2 blacklist: the site's IP blacklist, the zone's IP set, the IP risk score (abuse), a node's unknown-host limit,
 *   and every temporary block (`blocked:<cause>`, whichever rule made it);
 * - 3 region: a region rule (`geo:<country>`);
 * - 4 anti-CC: a challenge page or a failed challenge (`anticc`);
 * - 5 user agent (`ua`);
 * - 8 limits: request rate, request frequency, connections, and a site stopped at its traffic limit;
 * - 10 anti-referer (`referer`);
 * - 11 anti-header: a header rule (`header:<name>`) or a site's header check (`header`);
 * - 12 advanced firewall and WAF: an ACL rule (`acl`, blockRule `<module id>:<rule id>`) and WAF rules (`waf`).
 * Token authentication and basic-auth refusals (`token`, `basicAuth`, `basicAuthFailures`) are of no card: they
 * are type 0 (other) where refusals are split by type.
 */
export const BLOCK_TYPES = {
  2: { exact: ['blacklist', 'ipset', 'abuse', 'invalidDomain'], prefix: ['blocked:'] },
  3: { exact: [], prefix: ['geo:'] },
  4: { exact: ['anticc'], prefix: [] },
  5: { exact: ['ua'], prefix: [] },
  8: { exact: ['limit', 'frequency', 'connections', 'traffic'], prefix: [] },
  10: { exact: ['referer'], prefix: [] },
  11: { exact: ['header'], prefix: ['header:'] },
  12: { exact: ['acl', 'waf'], prefix: [] },
} as const satisfies Record<number, { exact: readonly string[]; prefix: readonly string[] }>;
export type BlockType = keyof typeof BLOCK_TYPES;
/** The block-type cards in the spec's order. */
export const BLOCK_TYPE_CARDS = [3, 4, 2, 8, 5, 10, 11, 12] as const satisfies readonly BlockType[];
/** Refusals of no card's cause. */
export const OTHER_BLOCK_TYPE = 0;
export const BLACKLIST_BLOCK_TYPE = 2 satisfies BlockType;
export const WAF_BLOCK_TYPE = 12 satisfies BlockType;

/** Which lines a report counts: all, the refused ones, or those refused with a cause of one block type. */
export type Among = 'all' | 'refused' | BlockType;
/** What a report type measures, among which lines, split by what (`time`: a series with the window's buckets). */
export type ReportType = { measure: 'requests' | 'sourceIps'; among: Among; by?: 'time' | 'clientIp' | 'domain' | 'country' | 'city' | 'blockType' | 'blockRule' };

/**
 * The security dashboard's report types, per call (spec §7); a number keeps its meaning within its call.
 * Cards: 3 requests, 4 refused requests, 5 distinct source IPs refused, 14 blacklist refusals (block type 2),
 * 15 advanced firewall/WAF refusals (block type 12).
 * Tops (10): 14 blacklisted source IPs, 19 most refused domains, 20 most refused source IPs.
 * Area tops (30): 11 requests and 21 refused requests by country, 12 requests and 22 refused requests by city.
 * Blacklist: 14 blacklist refusals per bucket (60 minutes), 12 refusals per block type, 18 blacklist refusals by country.
 * WAF (20): 13 WAF refusals per bucket (60 minutes), 23 by rule, 24 by domain, 25 by source IP.
 */
export const REPORT_TYPES = {
  cards: {
    3: { measure: 'requests', among: 'all' },
    4: { measure: 'requests', among: 'refused' },
    5: { measure: 'sourceIps', among: 'refused' },
    14: { measure: 'requests', among: BLACKLIST_BLOCK_TYPE },
    15: { measure: 'requests', among: WAF_BLOCK_TYPE },
  },
  tops: {
    14: { measure: 'requests', among: BLACKLIST_BLOCK_TYPE, by: 'clientIp' },
    19: { measure: 'requests', among: 'refused', by: 'domain' },
    20: { measure: 'requests', among: 'refused', by: 'clientIp' },
  },
  areaTops: {
    11: { measure: 'requests', among: 'all', by: 'country' },
    21: { measure: 'requests', among: 'refused', by: 'country' },
    12: { measure: 'requests', among: 'all', by: 'city' },
    22: { measure: 'requests', among: 'refused', by: 'city' },
  },
  blacklist: {
    14: { measure: 'requests', among: BLACKLIST_BLOCK_TYPE, by: 'time' },
    12: { measure: 'requests', among: 'refused', by: 'blockType' },
    18: { measure: 'requests', among: BLACKLIST_BLOCK_TYPE, by: 'country' },
  },
  waf: {
    13: { measure: 'requests', among: WAF_BLOCK_TYPE, by: 'time' },
    23: { measure: 'requests', among: WAF_BLOCK_TYPE, by: 'blockRule' },
    24: { measure: 'requests', among: WAF_BLOCK_TYPE, by: 'domain' },
    25: { measure: 'requests', among: WAF_BLOCK_TYPE, by: 'clientIp' },
  },
} as const satisfies Record<string, Record<number, ReportType>>;
export type ReportGroup = keyof typeof REPORT_TYPES;

/** Spec §9: six hours in 60-minute buckets; fixed tops 10, country/city 30, WAF 20. */
export const SECURITY_DEFAULTS = { timeInterval: 'sixHours', reportInterval: 60 } as const;
export const GROUP_TOP: Record<ReportGroup, number> = { cards: 10, tops: 10, areaTops: 30, blacklist: 10, waf: 20 };
/** Which types a call answers when none are asked for: country by default in the area tops. */
export const DEFAULT_TYPES: Record<ReportGroup, number[]> = {
  cards: [3, 4, 5, 14, 15],
  tops: [14, 19, 20],
  areaTops: [11, 21],
  blacklist: [14, 12, 18],
  waf: [13, 23, 24, 25],
};

/**
 * QPS (spec §4): the statistics timeSeries call in 5-minute buckets; the first fetch covers six hours, then every
 * QPS_POLL_MS the latest five minutes are fetched and the chart's axis moves on.
 */
export const QPS_SERIES = { timeInterval: 'sixHours', reportInterval: 5, pollWindowMinutes: 5 } as const;

const securityFields = filterFields.omit({ countsType: true, outcomes: true, area: true }).extend({
  timeInterval: z.enum(TIME_INTERVALS).default(SECURITY_DEFAULTS.timeInterval),
  reportInterval: z.union(REPORT_INTERVALS.map((n) => z.literal(n))).default(SECURITY_DEFAULTS.reportInterval),
});

/** The body of a group's call: the statistics filter, the types (each known to the group, no repeats) and the top size. */
export const securityBody = (group: ReportGroup) => {
  const known = Object.keys(REPORT_TYPES[group]).map(Number);
  return securityFields
    .extend({
      types: z
        .array(z.number().int().refine((n) => known.includes(n), `one of ${known.join(', ')}`))
        .min(1)
        .max(known.length)
        .refine((t) => new Set(t).size === t.length, 'types repeat')
        .default(DEFAULT_TYPES[group]),
      top: z.coerce.number().int().min(1).max(TOP_MAX).default(GROUP_TOP[group]),
    })
    .superRefine(windowCheck);
};
export type SecurityBody = z.infer<ReturnType<typeof securityBody>>;

export const securityCard = z.object({ type: z.number(), value: z.number() });
/**
 * One value of a top (a country code, a city, a domain, an address, a rule, a block type): its requests, their bytes
 * sent, and its whole-percent share of the requests of every value (`total`). A rule's key is what the edge noted
 * (`<module id>:<rule id>` for an advanced firewall rule), its label "module / rule" while the rule exists.
 */
export const securityItem = z.object({ key: z.string(), label: z.string(), count: z.number(), traffic: z.number(), share: z.number() });
export const securityTop = z.object({ type: z.number(), items: z.array(securityItem), total: z.number() });
export const securityPoint = z.object({ time: z.string(), count: z.number() });
export const securitySeries = z.object({ type: z.number(), points: z.array(securityPoint) });

export const securityCards = z.object({ window: statisticsWindow, cards: z.array(securityCard) });
export const securityTops = z.object({ window: statisticsWindow, tops: z.array(securityTop) });
export const securityReport = z.object({ window: statisticsWindow, series: z.array(securitySeries), tops: z.array(securityTop) });
