import { blockedRollupTable } from './blocked-rollup';
import { WIDE_DIMS, wideRollup } from './dimensions';
import { isNumbered, VALUE_ID } from './value-ids';

/** Counters of the base rollups (per bucket, site, domain and node). */
export const BASE_METRICS = [
  'requests', 'responses', 'bytes_sent', 'bytes_received', 'cache_hits', 'cache_bytes', 'blocked', 'blocked_bytes', 'upstream_requests',
  'china_requests', 'china_bytes', 'china_blocked', 'china_blocked_bytes', 'blocked_responses', 'status_2xx', 'status_3xx', 'status_4xx', 'status_5xx',
] as const;
/** Counters of the dimension rollups (per bucket, site, domain, dimension and value). */
export const DIM_METRICS = ['requests', 'bytes_sent', 'cache_hits', 'cache_bytes', 'blocked', 'blocked_bytes'] as const;
export const RESOLUTIONS = ['5m', '1h'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

const BUCKET_SITE_DOMAIN = 'bucket TIMESTAMP NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL';

/** A wide dimension's value as a 64-bit hash, which a ranking groups by far faster than by the text. */
export const VALUE_HASH = 'value_hash';

/**
 * The rollup tables of a resolution. They have no keys: a fold appends its sums, several rows of a bucket and key add
 * up in every read (sum), and compaction merges them now and then. Rows are written by column name.
 */
export const rollupTables = (r: Resolution) => [
  { name: `base_${r}`, keys: `${BUCKET_SITE_DOMAIN}, node_id INTEGER NOT NULL`, metrics: BASE_METRICS, extra: '' },
  { name: `dim_${r}`, keys: `${BUCKET_SITE_DOMAIN}, dim VARCHAR NOT NULL, value VARCHAR NOT NULL`, metrics: DIM_METRICS, extra: '' },
  ...WIDE_DIMS.map((d) => ({
    name: `${wideRollup(d)}_${r}`,
    keys: `${BUCKET_SITE_DOMAIN}, value VARCHAR NOT NULL`,
    metrics: DIM_METRICS,
    extra: `, ${VALUE_HASH} UBIGINT${isNumbered(d) ? `, ${VALUE_ID} UINTEGER` : ''}`,
  })),
  blockedRollupTable(r),
];
