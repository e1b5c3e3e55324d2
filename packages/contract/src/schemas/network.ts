import { z } from 'zod';
import { filterFields, statisticsWindow, windowCheck } from './statistics';

/**
 * Layer-4 (network) statistics (spec §3 L4 security, §9 L4 defaults): the connections the edges' stream servers
 * (L4 ports) passed or dropped, from the stream log each node ships. Traffic is in bits (bytes × 8), both directions.
 */

/** Spec §9: L4 default six hours, outcomes all, top 5. */
export const L4_DEFAULTS = { timeInterval: 'sixHours', outcomes: 'all', top: 5 } as const;
/** pass: the stream server proxied the connection; drop: the L4 firewall refused it (blacklist, connection limit, country). */
export const L4_OUTCOMES = ['all', 'pass', 'drop'] as const;
/** Spec §9 layer-4 protocols. */
export const L4_PROTOCOLS = ['TCP', 'UDP', 'ICMP', 'GRE'] as const;
/**
 * The protocols nginx's stream servers carry: ICMP and GRE never reach them, and TCP flags are packet-level, so
 * those are reported as not measured rather than as zeros.
 */
export const MEASURED_PROTOCOLS = ['TCP', 'UDP'] as const;
export type L4Protocol = (typeof L4_PROTOCOLS)[number];

const keys = (item: z.ZodType<string>) => z.array(item).max(100);
const ip = z.string().trim().min(1).max(45).regex(/^[0-9a-fA-F:.]+$/, 'an IP address');

/** The statistics filter's sites and window, with the L4 outcomes, protocols and the keys a series is asked for. */
const networkFields = filterFields
  .pick({ reservedZone: true, reservedSite: true, reportInterval: true, startTime: true, endTime: true, timeZone: true })
  .extend({
    timeInterval: filterFields.shape.timeInterval.unwrap().default(L4_DEFAULTS.timeInterval),
    top: filterFields.shape.top.unwrap().default(L4_DEFAULTS.top),
    outcomes: z.enum(L4_OUTCOMES).default(L4_DEFAULTS.outcomes),
    protocols: z.array(z.enum(L4_PROTOCOLS)).max(L4_PROTOCOLS.length).optional(),
    /** Data-centre countries (ISO codes; '' is unknown), source addresses, ASNs and TCP flags, from a tops answer. */
    countries: keys(z.string().trim().max(2)).optional(),
    ips: keys(ip).optional(),
    asns: keys(z.string().trim().regex(/^\d{0,10}$/, 'an AS number')).optional(),
    tcpFlags: keys(z.string().trim().min(1).max(16)).optional(),
  });
export const networkFilter = networkFields.superRefine(windowCheck);
export type NetworkFilter = z.infer<typeof networkFilter>;

/** sumBits: the window's bits passed, dropped and both, with connection counts. */
export const sumBits = z.object({
  window: statisticsWindow,
  pass: z.number(),
  drop: z.number(),
  total: z.number(),
  passConnections: z.number(),
  dropConnections: z.number(),
});

/** One bucket's average bit rate (bits per second over the bucket), by outcome; total follows the filter's outcomes. */
export const bitRatePoint = z.object({ time: z.string(), pass: z.number(), drop: z.number(), total: z.number() });
export const avgBitRate = z.object({ window: statisticsWindow, data: z.array(bitRatePoint) });

/** A top value: its bits and connections over the window (key: country code, address, AS number or flag name). */
export const topItem = z.object({ key: z.string(), bits: z.number(), connections: z.number() });
export const tops = z.object({
  window: statisticsWindow,
  /** Spec §4: true when the top list is empty. */
  noData: z.boolean(),
  /** False where the edge cannot see this (TCP flags): the list is empty because nothing was measured. */
  measured: z.boolean(),
  items: z.array(topItem),
});

/** A series per key asked for (or per protocol): average bits per second per bucket, empty buckets as zero. */
export const keyedBitRate = z.object({
  window: statisticsWindow,
  measured: z.boolean(),
  series: z.array(z.object({ key: z.string(), data: z.array(z.object({ time: z.string(), bitRate: z.number() })) })),
});

/** ipProtocols/bits: bits and connections per protocol; null where the protocol is not measured (ICMP, GRE). */
export const protocolBits = z.object({
  window: statisticsWindow,
  items: z.array(z.object({ protocol: z.enum(L4_PROTOCOLS), measured: z.boolean(), bits: z.number().nullable(), connections: z.number().nullable() })),
});
