/** The layer-4 part of the analytics store: the stream log of the edges' L4 ports, by connection. */

export type L4Outcomes = 'all' | 'pass' | 'drop';
/** colo: the node's (data centre's) country; ip, asn: of the client; protocol: TCP or UDP. */
export type L4Dimension = 'colo' | 'ip' | 'asn' | 'protocol';

/** What an L4 query covers, resolved by the service: the caller's chosen sites, the window and its bucket size. */
export type L4Scope = {
  siteIds: number[];
  from: Date;
  to: Date;
  intervalMinutes: number;
  timeZone?: string;
  outcomes: L4Outcomes;
  /** Only these protocols (empty or absent: all). */
  protocols?: string[];
};

export type L4Sums = { bytes: number; connections: number };
export type L4Row = L4Sums & { key: string };
/** One bucket's bytes of one key (or '' without a dimension), by outcome. */
export type L4Point = { time: Date; key: string; pass: number; drop: number };

export type L4Store = {
  /** Like AnalyticsStore.ingest, for a batch of agent-protocol stream lines (exactly once by file and offset). */
  /** `shiftMs`: added to every line's time (the node's clock set right; see agent-protocol LOG_SENT_AT_HEADER). */
  ingest(o: { nodeId: number; file?: string; ndjson: Buffer | string; served: number[]; shiftMs?: number }): Promise<{ accepted: number; stored: number; siteIds: number[] }>;
  /** The window's bytes and connections, passed and dropped (each zero where the outcomes leave it out). */
  sums(scope: L4Scope): Promise<{ pass: L4Sums; drop: L4Sums }>;
  /** The window's buckets in order, and per bucket and key the bytes (only of `keys` when given; sparse). */
  series(scope: L4Scope, o: { dimension?: L4Dimension; keys?: string[] }): Promise<{ buckets: Date[]; points: L4Point[] }>;
  /** The values of a dimension with the most bytes. */
  top(scope: L4Scope, o: { dimension: L4Dimension; limit: number }): Promise<L4Row[]>;
};
