import type { statisticsSchemas } from '@edgekeep/contract';
import type { L4Store } from './l4/types';
import type { BatchLimits } from './spool';

/**
 * The analytics store's interface: what the API's services ask of it. The DuckDB file in DATA_DIR is the embedded
 * implementation (`store.ts`); another engine (ClickHouse) can take the same interface over.
 */

export type Dimension = statisticsSchemas.Dimension;
export type Outcomes = 'all' | 'allowed' | 'blocked';

/**
 * What a statistics query covers, already resolved by the service: the sites the caller reaches and chose, the
 * domains (empty: all of those sites'), and the window [from, to) aligned to the bucket size.
 */
export type Scope = {
  siteIds: number[];
  domains?: string[];
  from: Date;
  to: Date;
  /** Bucket size of a time series in minutes (5, 15, 60 or 1440). */
  intervalMinutes: number;
  /** IANA zone in which day buckets start (default UTC). */
  timeZone?: string;
  outcomes: Outcomes;
};

/** The counts a row of a top list or a grouped list carries. */
export type Counts = { requests: number; traffic: number; cacheHits: number; cacheTraffic: number; blocked: number };
export type Row = Counts & { key: string };

export type Cards = {
  requests: number;
  responses: number;
  traffic: number;
  trafficReceived: number;
  cacheHits: number;
  cacheTraffic: number;
  upstreamRequests: number;
  chinaRequests: number;
  chinaTraffic: number;
  blocked: number;
  chinaBlocked: number;
  /** The busiest bucket (of intervalMinutes) in bits/s and requests/s. */
  peakBandwidth: number;
  peakQps: number;
  /** Requests per value of each of these dimensions. */
  breakdown: Record<'status' | 'method' | 'httpVersion' | 'ipVersion' | 'protocol' | 'blockCause', Record<string, number>>;
};

export type Point = {
  time: Date;
  requests: number;
  responses: number;
  traffic: number;
  cacheHits: number;
  cacheTraffic: number;
  upstreamRequests: number;
  blocked: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
};

/** A raw access line as stored (log search and export). */
export type RawLine = {
  time: Date;
  nodeId: number;
  siteId: number;
  domain: string;
  requestId: string;
  clientIp: string;
  country: string;
  region: string;
  city: string;
  isp: string;
  asn: string;
  scheme: string;
  method: string;
  uri: string;
  status: number;
  bytesSent: number;
  bytesReceived: number;
  requestTime: number;
  upstreamTime: number | null;
  cacheStatus: string;
  httpVersion: string;
  referer: string;
  userAgent: string;
  blockCause: string;
  blockRule: string;
  blockAction: string;
};

/** A log search: the sites the caller reaches and chose, a window of at most a day, and the Log query's filters. */
export type LineFilter = {
  siteIds: number[];
  from: Date;
  to: Date;
  domains?: string[];
  clientIp?: string;
  cacheStatus?: string;
  /** A part of the URI. */
  uri?: string;
  status?: number;
  /** Only lines the edge refused (the WAF log). */
  blockedOnly?: boolean;
};

/** What refused requests can be split by (the refused lines' rollups); blockType per the contract's securitySchemas.BLOCK_TYPES. */
export type RefusalDimension = 'clientIp' | 'domain' | 'country' | 'city' | 'blockCause' | 'blockRule' | 'blockType';

export type AnalyticsStore = {
  /**
   * Takes one node's batch (NDJSON text of agent-protocol access lines; `gzip`: the text gzipped, as nodes send it,
   * unpacked as it is written to disk): once it answers, the batch is on disk and counts in every query that follows.
   * Lines of sites outside `served`, and lines already stored (same node, file and offset, or the same batch again),
   * are skipped when it is loaded. Answers the number of lines read. A batch past `limits` (unpacked), or not gzip
   * when it should be, is refused whole (spool's BatchRefused). `shiftMs`: added to every line's time (the node's
   * clock set right; see agent-protocol LOG_SENT_AT_HEADER).
   */
  ingest(o: { nodeId: number; file?: string; ndjson: Buffer | string; gzip?: boolean; limits?: BatchLimits; served: number[]; shiftMs?: number }): Promise<{ accepted: number }>;
  /** Calls `listener` after each load with the lines it stored and skipped and its batches' newest line times; answers how to stop. */
  onLoaded(listener: (loaded: { stored: number; skipped: number; newest: number[] }) => void): () => void;
  cards(scope: Scope): Promise<Cards>;
  /** Dense: one point per bucket of [from, to), empty buckets as zeros; paged. */
  series(scope: Scope, page: { offset: number; limit: number }): Promise<{ points: Point[]; total: number }>;
  /** Values of one dimension ranked by requests or traffic; `total` sums every value, not only the top. */
  top(scope: Scope, o: { dimension: Dimension; limit: number; by: 'requests' | 'traffic' }): Promise<{ rows: Row[]; total: Counts }>;
  /** Values of one dimension, sorted and paged, with how many values there are. */
  group(scope: Scope, o: { dimension: Dimension; sortBy: keyof Counts | 'key'; order: 'asc' | 'desc'; limit: number; offset: number }): Promise<{ rows: Row[]; total: number }>;
  /** Raw lines newest first, paged, with the number matching. */
  lines(filter: LineFilter, page: { offset: number; limit: number }): Promise<{ rows: RawLine[]; total: number }>;
  /** How many raw lines match (an export's total), without reading them. */
  countLines(filter: LineFilter): Promise<number>;
  /** Every matching raw line newest first, in chunks, reading at most `chunk` lines into memory at a time. */
  streamLines(filter: LineFilter, o: { chunk: number }): AsyncIterable<RawLine[]>;
  /** Per-site totals of [from, to) (traffic accounting); only sites with traffic appear. */
  totalsBySite(o: { from: Date; to: Date; siteIds?: number[] }): Promise<{ siteId: number; bytesSent: number; bytesReceived: number; requests: number; cacheHits: number; cacheBytes: number }[]>;
  /** Domains ranked by traffic or requests in [from, to), one page, with how many domains had traffic. */
  domainRanks(o: { from: Date; to: Date; siteIds: number[]; sortBy: 'traffic' | 'reqCount'; order: 'asc' | 'desc'; limit: number; offset: number }): Promise<{ rows: { siteId: number; domain: string; traffic: number; requests: number }[]; total: number }>;
  /** Refused requests of the scope (of some block types, else all), their bytes and distinct client addresses. */
  refusals(scope: Scope, o: { types?: number[] }): Promise<{ requests: number; traffic: number; sourceIps: number }>;
  /** Refused requests by one dimension, most first; `total` sums every value, not only the top. */
  refusalTop(scope: Scope, o: { types?: number[]; by: RefusalDimension; limit: number }): Promise<{ rows: { key: string; requests: number; traffic: number }[]; total: { requests: number; traffic: number } }>;
  /** Refused requests per bucket of the scope, dense. */
  refusalSeries(scope: Scope, o: { types?: number[] }): Promise<{ time: Date; requests: number }[]>;
  /** The stream (L4) log's connections, in tables and rollups of their own. */
  l4: L4Store;
  /** Calls `listener` with the sites whose new lines each fold just made count in the rollups; answers how to stop. */
  onFolded(listener: (siteIds: number[]) => void): () => void;
  close(): Promise<void>;
};
