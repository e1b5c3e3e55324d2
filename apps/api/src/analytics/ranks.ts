import type { DuckDBConnection } from '@duckdb/node-api';
import { BASE_KEYS, dimSource, type DIM_VALUES } from './dimensions';
import { countSums, resolutionOf, rollupWhere, scopeRead } from './scope';
import { num, rows, type Params } from './sql';
import type { Counts, Dimension, Row, Scope } from './types';

const COUNTS = ['requests', 'traffic', 'cacheHits', 'cacheTraffic', 'blocked'] as const;
const countsOf = (r: Record<string, unknown>, prefix = ''): Counts =>
  Object.fromEntries(COUNTS.map((c) => [c, num(r[`${prefix}${c}`])])) as Counts;

/** One dimension's values with their counts: from the base rollups for site, domain and node, else the dimension rollups. */
const valuesOf = (scope: Scope, dimension: Dimension, params: Params) => {
  const { where } = scopeRead(scope, params);
  // A ranking sums the whole window: hourly rollups give the same counts when it falls on whole hours, from fewer rows.
  const resolution = resolutionOf({ from: scope.from, to: scope.to });
  const base = BASE_KEYS[dimension];
  const dims = base ? undefined : dimSource(dimension as keyof typeof DIM_VALUES, resolution);
  const source = dims
    ? `SELECT value AS key, ${countSums(scope.outcomes)} FROM ${dims.table} WHERE ${where} AND ${dims.only} GROUP BY key`
    : `SELECT ${base} AS key, ${countSums(scope.outcomes)} FROM base_${resolution} WHERE ${where} GROUP BY key`;
  return `(SELECT * FROM (${source}) WHERE requests > 0)`;
};

export async function top(conn: DuckDBConnection, scope: Scope, o: { dimension: Dimension; limit: number; by: 'requests' | 'traffic' }) {
  const params: Params = [];
  const found = await rows(
    conn,
    `SELECT *, ${COUNTS.map((c) => `sum("${c}") OVER () AS "total_${c}"`).join(', ')} FROM ${valuesOf(scope, o.dimension, params)}
     ORDER BY "${o.by === 'traffic' ? 'traffic' : 'requests'}" DESC, key ASC LIMIT ${Math.trunc(o.limit)}`,
    params,
  );
  const rowsOut: Row[] = found.map((r) => ({ key: String(r.key), ...countsOf(r) }));
  const total = found.length ? countsOf(found[0], 'total_') : countsOf({});
  return { rows: rowsOut, total };
}

export async function group(
  conn: DuckDBConnection,
  scope: Scope,
  o: { dimension: Dimension; sortBy: keyof Counts | 'key'; order: 'asc' | 'desc'; limit: number; offset: number },
) {
  const params: Params = [];
  const column = o.sortBy === 'key' ? 'key' : (COUNTS.find((c) => c === o.sortBy) ?? 'requests');
  const source = valuesOf(scope, o.dimension, params);
  const found = await rows(
    conn,
    `SELECT *, count(*) OVER () AS total FROM ${source}
     ORDER BY "${column}" ${o.order === 'asc' ? 'ASC' : 'DESC'}, key ASC LIMIT ${Math.trunc(o.limit)} OFFSET ${Math.trunc(o.offset)}`,
    params,
  );
  const rowsOut: Row[] = found.map((r) => ({ key: String(r.key), ...countsOf(r) }));
  if (found.length || !o.offset) return { rows: rowsOut, total: found.length ? num(found[0].total) : 0 };
  const [{ total }] = await rows(conn, `SELECT count(*) AS total FROM ${source}`, params);
  return { rows: rowsOut, total: num(total) };
}

/** Per-site totals of a window, from the same rollups the domain ranking reads. */
export async function totalsBySite(conn: DuckDBConnection, o: { from: Date; to: Date; siteIds?: number[] }) {
  const params: Params = [];
  const found = await rows(
    conn,
    `SELECT site_id, sum(bytes_sent) AS sent, sum(bytes_received) AS received, sum(requests) AS requests, sum(cache_hits) AS hits, sum(cache_bytes) AS cache
     FROM base_${resolutionOf(o)} WHERE ${rollupWhere(o, params)} GROUP BY site_id HAVING sum(requests) > 0 ORDER BY site_id`,
    params,
  );
  return found.map((r) => ({
    siteId: num(r.site_id),
    bytesSent: num(r.sent),
    bytesReceived: num(r.received),
    requests: num(r.requests),
    cacheHits: num(r.hits),
    cacheBytes: num(r.cache),
  }));
}

/** Domains ranked by bytes sent ('traffic') or requests, one page sorted and cut in the query, and how many had traffic. */
export async function domainRanks(
  conn: DuckDBConnection,
  o: { from: Date; to: Date; siteIds: number[]; sortBy: 'traffic' | 'reqCount'; order: 'asc' | 'desc'; limit: number; offset: number },
) {
  const params: Params = [];
  const source = `SELECT site_id, domain, sum(bytes_sent) AS traffic, sum(requests) AS requests FROM base_${resolutionOf(o)}
    WHERE ${rollupWhere(o, params)} GROUP BY site_id, domain HAVING sum(requests) > 0`;
  const found = await rows(
    conn,
    `SELECT *, count(*) OVER () AS total FROM (${source})
     ORDER BY ${o.sortBy === 'reqCount' ? 'requests' : 'traffic'} ${o.order === 'asc' ? 'ASC' : 'DESC'}, domain ASC, site_id ASC
     LIMIT ${Math.trunc(o.limit)} OFFSET ${Math.trunc(o.offset)}`,
    params,
  );
  const total = found.length || !o.offset ? num(found[0]?.total) : num((await rows(conn, `SELECT count(*) AS total FROM (${source})`, params))[0].total);
  return { rows: found.map((r) => ({ siteId: num(r.site_id), domain: String(r.domain), traffic: num(r.traffic), requests: num(r.requests) })), total };
}
