import type { DuckDBConnection } from '@duckdb/node-api';
import { BASE_KEYS, dimSource, isWide, type DIM_VALUES } from './dimensions';
import { countSums, OUTCOME_SUMS, resolutionOf, rollupWhere, scopeRead } from './scope';
import { VALUE_HASH } from './tables';
import { num, rows, type Params } from './sql';
import type { Counts, Dimension, Row, Scope } from './types';

const COUNTS = ['requests', 'traffic', 'cacheHits', 'cacheTraffic', 'blocked'] as const;
const countsOf = (r: Record<string, unknown>, prefix = ''): Counts =>
  Object.fromEntries(COUNTS.map((c) => [c, num(r[`${prefix}${c}`])])) as Counts;

/** A ranking sums the whole window: hourly rollups give the same counts when it falls on whole hours, from fewer rows. */
const rankResolution = (scope: Scope) => resolutionOf({ from: scope.from, to: scope.to });

/** One dimension's values with their counts: from the base rollups for site, domain and node, else the dimension rollups. */
const valuesOf = (scope: Scope, dimension: Dimension, params: Params) => {
  const { where } = scopeRead(scope, params);
  const resolution = rankResolution(scope);
  const base = BASE_KEYS[dimension];
  const dims = base ? undefined : dimSource(dimension as keyof typeof DIM_VALUES, resolution);
  const source = dims
    ? `SELECT value AS key, ${countSums(scope.outcomes)} FROM ${dims.table} WHERE ${where} AND ${dims.only} GROUP BY key`
    : `SELECT ${base} AS key, ${countSums(scope.outcomes)} FROM base_${resolution} WHERE ${where} GROUP BY key`;
  return `(SELECT * FROM (${source}) WHERE requests > 0)`;
};

/** The window's totals under the scope's outcome: every line has one value in each dimension, so the base rollups' sums. */
const totalsOf = async (conn: DuckDBConnection, scope: Scope) => {
  const params: Params = [];
  const { where } = scopeRead(scope, params);
  const [found] = await rows(conn, `SELECT ${countSums(scope.outcomes)} FROM base_${rankResolution(scope)} WHERE ${where}`, params);
  return countsOf(found);
};

/** A ranking by hash reads this many values past the `limit`-th, to see every tie with it. */
const TIE_MARGIN = 100;

/**
 * The hashes of a wide dimension's values that may rank in the first `limit`: grouped by the value's hash (far faster
 * than by its text), those scoring at least the `limit`-th score. A collision only adds two values' counts up, so the
 * true first `limit` are among them. Undefined when more than TIE_MARGIN values tie with the `limit`-th.
 */
const wideCandidates = async (conn: DuckDBConnection, scope: Scope, o: { table: string; by: 'requests' | 'traffic'; limit: number }) => {
  const params: Params = [];
  const { where } = scopeRead(scope, params);
  const sums = OUTCOME_SUMS[scope.outcomes];
  const found = await rows(
    conn,
    `SELECT ${VALUE_HASH} AS h, sum(${sums[o.by]}) AS score FROM ${o.table} WHERE ${where} GROUP BY h HAVING sum(${sums.requests}) > 0
     ORDER BY score DESC LIMIT ${o.limit + TIE_MARGIN}`,
    params,
  );
  if (found.length <= o.limit) return found.map((r) => BigInt(r.h as bigint));
  const cut = num(found[o.limit - 1].score);
  // every value was read, or one past the ties was: the candidates are complete
  if (found.length === o.limit + TIE_MARGIN && num(found.at(-1)!.score) >= cut) return undefined;
  return found.filter((r) => num(r.score) >= cut).map((r) => BigInt(r.h as bigint));
};

/**
 * A wide dimension's first `limit` values with their exact counts: the candidates' rows grouped by text. Undefined
 * when the hashes cannot decide: too many ties, or two candidate values sharing a hash.
 */
const wideTop = async (conn: DuckDBConnection, scope: Scope, o: { table: string; by: 'requests' | 'traffic'; limit: number; order: string }) => {
  const hashes = await wideCandidates(conn, scope, o);
  if (!hashes) return undefined;
  if (!hashes.length) return [];
  const params: Params = [];
  const { where } = scopeRead(scope, params);
  const found = await rows(
    conn,
    `SELECT * FROM (SELECT value AS key, any_value(${VALUE_HASH}) AS h, ${countSums(scope.outcomes)} FROM ${o.table}
       WHERE ${where} AND ${VALUE_HASH} IN (${hashes.map((h) => `${h}::UBIGINT`).join(', ')}) GROUP BY key) WHERE requests > 0 ${o.order}`,
    params,
  );
  return new Set(found.map((r) => r.h)).size < found.length ? undefined : found.slice(0, o.limit);
};

export async function top(conn: DuckDBConnection, scope: Scope, o: { dimension: Dimension; limit: number; by: 'requests' | 'traffic' }) {
  const order = `ORDER BY "${o.by === 'traffic' ? 'traffic' : 'requests'}" DESC, key ASC`;
  const table = isWide(o.dimension) ? dimSource(o.dimension, rankResolution(scope)).table : undefined;
  const byText = async () => {
    const params: Params = [];
    return rows(conn, `SELECT * FROM ${valuesOf(scope, o.dimension, params)} ${order} LIMIT ${Math.trunc(o.limit)}`, params);
  };
  const found = (table && (await wideTop(conn, scope, { table, by: o.by, limit: o.limit, order }))) || (await byText());
  return { rows: found.map((r): Row => ({ key: String(r.key), ...countsOf(r) })), total: await totalsOf(conn, scope) };
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
