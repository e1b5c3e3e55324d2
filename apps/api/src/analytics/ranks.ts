import type { DuckDBConnection } from '@duckdb/node-api';
import { BASE_KEYS, dimSource, isWide, type DIM_VALUES } from './dimensions';
import { countSums, OUTCOME_SUMS, resolutionOf, rollupWhere, scopeRead } from './scope';
import { VALUE_HASH } from './tables';
import { num, rows, type Params } from './sql';
import { idsTable, isNumbered, VALUE_ID, withDenseGrouping } from './value-ids';
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

/** What a wide dimension's ranking groups by: its values' numbers where they have some, else their hashes. */
const rankKey = (dimension: Dimension) => (isNumbered(dimension) ? { column: VALUE_ID, type: 'UINTEGER' } : { column: VALUE_HASH, type: 'UBIGINT' });
type Wide = { dimension: Dimension; table: string; by: 'requests' | 'traffic'; limit: number };

/**
 * The keys (numbers or hashes) of a wide dimension's values that may rank in the first `limit`: grouped by the key (far
 * faster than by the text), those scoring at least the `limit`-th score. A hash collision only adds two values' counts
 * up, so the true first `limit` are among them. Undefined when more than TIE_MARGIN values tie with the `limit`-th. A
 * value counts when one of its rows does (counts are never negative), so rows are picked rather than sums.
 */
const wideCandidates = async (conn: DuckDBConnection, scope: Scope, o: Wide) => {
  const params: Params = [];
  const { where } = scopeRead(scope, params);
  const sums = OUTCOME_SUMS[scope.outcomes];
  const ranked = () =>
    rows(
      conn,
      `SELECT ${rankKey(o.dimension).column} AS h, sum(${sums[o.by]}) AS score FROM ${o.table} WHERE ${where} AND ${sums.requests} > 0
       GROUP BY h ORDER BY score DESC LIMIT ${o.limit + TIE_MARGIN}`,
      params,
    );
  const found = isNumbered(o.dimension) ? await withDenseGrouping(conn, ranked) : await ranked();
  if (found.length <= o.limit) return found.map((r) => String(r.h));
  const cut = num(found[o.limit - 1].score);
  // every value was read, or one past the ties was: the candidates are complete
  if (found.length === o.limit + TIE_MARGIN && num(found.at(-1)!.score) >= cut) return undefined;
  return found.filter((r) => num(r.score) >= cut).map((r) => String(r.h));
};

/**
 * A wide dimension's first `limit` values with their exact counts: the candidates' rows grouped by text (or by number).
 * Undefined when the keys cannot decide: too many ties, or two candidate values sharing a hash.
 */
const wideTop = async (conn: DuckDBConnection, scope: Scope, o: Wide & { order: string }) => {
  const keys = await wideCandidates(conn, scope, o);
  if (!keys) return undefined;
  if (!keys.length) return [];
  const params: Params = [];
  const { where } = scopeRead(scope, params);
  const { column, type } = rankKey(o.dimension);
  const picked = `${where} AND ${column} IN (${keys.map((k) => `${k}::${type}`).join(', ')})`;
  // a number stands for one text: its rows are summed by number and its text read from the numbers' table
  const source = isNumbered(o.dimension)
    ? `SELECT i.value AS key, r.* FROM (SELECT ${column} AS h, ${countSums(scope.outcomes)} FROM ${o.table} WHERE ${picked} GROUP BY h) r
       JOIN ${idsTable(o.dimension)} i ON i.id = r.h`
    : `SELECT value AS key, any_value(${column}) AS h, ${countSums(scope.outcomes)} FROM ${o.table} WHERE ${picked} GROUP BY key`;
  const found = await rows(conn, `SELECT * FROM (${source}) WHERE requests > 0 ${o.order}`, params);
  return new Set(found.map((r) => r.h)).size < found.length ? undefined : found.slice(0, o.limit);
};

export async function top(conn: DuckDBConnection, scope: Scope, o: { dimension: Dimension; limit: number; by: 'requests' | 'traffic' }) {
  const order = `ORDER BY "${o.by === 'traffic' ? 'traffic' : 'requests'}" DESC, key ASC`;
  const table = isWide(o.dimension) ? dimSource(o.dimension, rankResolution(scope)).table : undefined;
  const byText = async () => {
    const params: Params = [];
    return rows(conn, `SELECT * FROM ${valuesOf(scope, o.dimension, params)} ${order} LIMIT ${Math.trunc(o.limit)}`, params);
  };
  const found = (table && (await wideTop(conn, scope, { dimension: o.dimension, table, by: o.by, limit: o.limit, order }))) || (await byText());
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
