import type { DuckDBConnection } from '@duckdb/node-api';
import { statisticsSchemas } from '@edgekeep/contract';
import { blockedFold } from './blocked-rollup';
import { DIM_VALUES, SMALL_DIMS, WIDE_DIMS, wideRollup } from './dimensions';
import { BASE_METRICS, DIM_METRICS, RESOLUTIONS, rollupTables, VALUE_HASH } from './tables';
import { num, rows, stamp } from './sql';
import { isNumbered, numberFold, pruneValueIds } from './value-ids';

/** Hourly rollups are kept this long; the 5-minute ones for the contract's FIVE_MINUTE_ROLLUP_DAYS. */
export const HOURLY_ROLLUP_DAYS = 400;

const CACHE_HITS = `('HIT', 'STALE', 'UPDATING', 'REVALIDATED')`;

/**
 * Where a fold sums from: the raw lines, or the pre-aggregate (lines summed per bucket, site, domain, node and the
 * small dimensions' values together). `value` is a small dimension's value there, `lines` and `bytes` sum the lines
 * and the bytes sent (of those `where` picks).
 */
type Source = { value: (dim: (typeof SMALL_DIMS)[number]) => string; lines: (where?: string) => string; bytes: (where?: string) => string };
const filtered = (sum: string, where?: string) => (where ? `coalesce(${sum} FILTER (WHERE ${where}), 0)` : sum);
const RAW: Source = { value: (dim) => DIM_VALUES[dim], lines: (where) => filtered('count(*)', where), bytes: (where) => filtered('sum(bytes_sent)', where) };
const preColumn = (dim: string) => `"pre_${dim}"`;
const PRE: Source = { value: preColumn, lines: (where) => filtered('sum(requests)', where), bytes: (where) => filtered('sum(bytes_sent)', where) };

/** The dimension rollups' counters summed from a source. */
const dimSums = (src: Source): Record<(typeof DIM_METRICS)[number], string> => {
  const hit = `${src.value('cacheStatus')} IN ${CACHE_HITS}`;
  const blocked = `${src.value('blockCause')} <> ''`;
  return { requests: src.lines(), bytes_sent: src.bytes(), cache_hits: src.lines(hit), cache_bytes: src.bytes(hit), blocked: src.lines(blocked), blocked_bytes: src.bytes(blocked) };
};

/** The base rollups' counters summed from the pre-aggregate. 444 and 499: nginx closed the connection without an answer, or the client left before one. */
const baseSums = (): Record<(typeof BASE_METRICS)[number], string> => {
  const blocked = `${PRE.value('blockCause')} <> ''`;
  const china = `${PRE.value('country')} = 'CN'`;
  const responded = `${PRE.value('status')} NOT IN ('444', '499')`;
  const status = (from: number) => `TRY_CAST(${PRE.value('status')} AS INTEGER) BETWEEN ${from} AND ${from + 99}`;
  return {
    ...dimSums(PRE),
    responses: PRE.lines(responded),
    bytes_received: 'sum(bytes_received)',
    upstream_requests: 'sum(upstream_requests)',
    china_requests: PRE.lines(china),
    china_bytes: PRE.bytes(china),
    china_blocked: PRE.lines(`${china} AND ${blocked}`),
    china_blocked_bytes: PRE.bytes(`${china} AND ${blocked}`),
    blocked_responses: PRE.lines(`${blocked} AND ${responded}`),
    status_2xx: PRE.lines(status(200)),
    status_3xx: PRE.lines(status(300)),
    status_4xx: PRE.lines(status(400)),
    status_5xx: PRE.lines(status(500)),
  };
};
const select = (sums: Record<string, string>) => Object.entries(sums).map(([m, sql]) => `${sql} AS ${m}`).join(', ');

const sums = (metrics: readonly string[]) => metrics.map((m) => `sum(${m}) AS ${m}`).join(', ');
const reBucket = (metrics: readonly string[]) => `time_bucket(INTERVAL 1 HOUR, bucket) AS bucket, * EXCLUDE (bucket, ${metrics.join(', ')}), ${sums(metrics)}`;

/** Appends the rows of temp table `from` (of dimension `dim` only, less that column, when given) to `<name>_5m`, and their hourly sums to `<name>_1h`. */
const append = async (conn: DuckDBConnection, { name, metrics, from, dim }: { name: string; metrics: readonly string[]; from: string; dim?: string }) => {
  const picked = dim ? `SELECT * EXCLUDE (dim) FROM ${from} WHERE dim = '${dim}'` : `SELECT * FROM ${from}`;
  await conn.run(`INSERT INTO ${name}_5m BY NAME ${picked} ORDER BY bucket`);
  await conn.run(`INSERT INTO ${name}_1h BY NAME SELECT ${reBucket(metrics)} FROM (${picked}) GROUP BY ALL ORDER BY bucket`);
};

const BUCKET = 'time_bucket(INTERVAL 5 MINUTE, time) AS bucket';
/** One grouping set per dimension: a row's dimension is the one column of its set that is not NULL, and its value that column's. */
const perDimension = (dims: readonly string[], column: (dim: string) => string) => ({
  columns: `CASE ${dims.map((d) => `WHEN GROUPING(${column(d)}) = 0 THEN '${d}'`).join(' ')} END AS dim, coalesce(${dims.map(column).join(', ')}) AS value`,
  sets: `GROUPING SETS (${dims.map((d) => `(bucket, site_id, domain, ${column(d)})`).join(', ')})`,
});

/**
 * Adds the raw rows of `range` to the 5-minute and hourly rollups (the dimension ones only, with `dimsOnly`). The base
 * and small-dimension rollups are summed from a pre-aggregate of the lines (one pass over them); the wide dimensions
 * from the lines, all in one grouping-sets pass.
 */
export const foldRows = async (conn: DuckDBConnection, { range, dimsOnly = false }: { range: string; dimsOnly?: boolean }) => {
  // The browser family of each distinct User-Agent, worked out once per agent rather than once per line: its tests
  // (a regular expression and a dozen string searches) took two thirds of the pre-aggregate's time.
  await conn.run(`CREATE TEMP TABLE fold_ua AS SELECT user_agent, ${DIM_VALUES.uaFamily} AS ua_family FROM (SELECT DISTINCT user_agent FROM access_log WHERE ${range})`);
  const value = (dim: (typeof SMALL_DIMS)[number]) => (dim === 'uaFamily' ? 'fold_ua.ua_family' : RAW.value(dim));
  await conn.run(`CREATE TEMP TABLE fold_pre AS
    SELECT ${BUCKET}, site_id, domain, node_id, ${SMALL_DIMS.map((d) => `coalesce(${value(d)}, '') AS ${preColumn(d)}`).join(', ')},
      count(*) AS requests, sum(bytes_sent) AS bytes_sent, sum(bytes_received) AS bytes_received, count(*) FILTER (WHERE upstream_time IS NOT NULL) AS upstream_requests
    FROM access_log JOIN fold_ua USING (user_agent) WHERE ${range} GROUP BY ALL`);
  if (!dimsOnly) {
    await conn.run(`CREATE TEMP TABLE fold_base AS SELECT bucket, site_id, domain, node_id, ${select(baseSums())} FROM fold_pre GROUP BY ALL`);
    await append(conn, { name: 'base', metrics: BASE_METRICS, from: 'fold_base' });
    const blocked = blockedFold(range);
    await conn.run(blocked.create);
    await append(conn, blocked.append);
  }
  const small = perDimension(SMALL_DIMS, preColumn);
  await conn.run(`CREATE TEMP TABLE fold_dim AS SELECT bucket, site_id, domain, ${small.columns}, ${select(dimSums(PRE))} FROM fold_pre GROUP BY ${small.sets}`);
  await append(conn, { name: 'dim', metrics: DIM_METRICS, from: 'fold_dim' });
  const wideColumn = (dim: string) => `"wide_${dim}"`;
  const wide = perDimension(WIDE_DIMS, wideColumn);
  await conn.run(`CREATE TEMP TABLE fold_wide AS
    SELECT bucket, site_id, domain, ${wide.columns}, hash(coalesce(${WIDE_DIMS.map(wideColumn).join(', ')})) AS ${VALUE_HASH}, ${select(dimSums(RAW))}
    FROM (SELECT ${BUCKET}, *, ${WIDE_DIMS.map((d) => `coalesce(${DIM_VALUES[d]}, '') AS ${wideColumn(d)}`).join(', ')} FROM access_log WHERE ${range})
    GROUP BY ${wide.sets}`);
  const temps = ['fold_ua', 'fold_pre', 'fold_base', 'fold_blocked', 'fold_dim', 'fold_wide'];
  for (const dim of WIDE_DIMS) {
    const numbered = isNumbered(dim) ? await numberFold(conn, { dim, from: 'fold_wide' }) : undefined;
    if (numbered) temps.push(numbered);
    await append(conn, { name: wideRollup(dim), metrics: DIM_METRICS, ...(numbered ? { from: numbered } : { from: 'fold_wide', dim }) });
  }
  for (const table of temps) await conn.run(`DROP TABLE IF EXISTS ${table}`);
};

/**
 * Merges the rows each rollup holds per bucket and key between `from` and `to` (hour boundaries) into one, in one
 * transaction: folds append, so a bucket gets a row per fold until then.
 */
export const compact = async (conn: DuckDBConnection, { from, to }: { from: string; to: string }) => {
  const inRange = `bucket >= '${from}'::TIMESTAMP AND bucket < '${to}'::TIMESTAMP`;
  await conn.run('BEGIN TRANSACTION');
  try {
    for (const { name, metrics } of RESOLUTIONS.flatMap(rollupTables)) {
      await conn.run(`CREATE TEMP TABLE compacted AS SELECT * EXCLUDE (${metrics.join(', ')}), ${sums(metrics)} FROM ${name} WHERE ${inRange} GROUP BY ALL`);
      await conn.run(`DELETE FROM ${name} WHERE ${inRange}`);
      await conn.run(`INSERT INTO ${name} BY NAME SELECT * FROM compacted ORDER BY bucket`);
      await conn.run('DROP TABLE compacted');
    }
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
};

/**
 * Folds the raw rows not yet in the rollups (seq above the watermark) into them and moves the watermark, in one
 * transaction: a row is counted once whether the process stops before, during or after. Answers how many rows.
 */
export const fold = async (conn: DuckDBConnection) => {
  const [{ folded }] = await rows(conn, 'SELECT folded FROM rollup_state WHERE id = 1');
  const [{ upto, n, first, last, sites }] = await rows(
    conn,
    `SELECT max(seq) AS upto, count(*) AS n, strftime(min(time), '%Y-%m-%d %H:%M:%S') AS first, strftime(max(time), '%Y-%m-%d %H:%M:%S') AS last,
       list(DISTINCT site_id ORDER BY site_id) AS sites
     FROM access_log WHERE seq > $1`,
    [num(folded)],
  );
  if (upto === null) return { n: 0, siteIds: [] };
  await conn.run('BEGIN TRANSACTION');
  try {
    await foldRows(conn, { range: `seq > ${num(folded)} AND seq <= ${num(upto)}` });
    await conn.run('UPDATE rollup_state SET folded = $1 WHERE id = 1', [num(upto)]);
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
  return { n: num(n), first: String(first), last: String(last), siteIds: (sites as unknown[]).map(num) };
};

export const daysAgo = (days: number) => stamp(new Date(Date.now() - days * 86_400_000));

/**
 * Drops what is past its retention: raw lines (only once folded), batch digests and idle file cursors with them,
 * 5-minute and hourly rollups, and the value numbers no rollup holds any more.
 */
export const prune = async (conn: DuckDBConnection, { rawRetentionDays }: { rawRetentionDays: number }) => {
  const raw = daysAgo(rawRetentionDays);
  const fine = daysAgo(statisticsSchemas.FIVE_MINUTE_ROLLUP_DAYS);
  await conn.run('DELETE FROM access_log WHERE time < $1::TIMESTAMP AND seq <= (SELECT folded FROM rollup_state WHERE id = 1)', [raw]);
  await conn.run('DELETE FROM batches WHERE received_at < $1::TIMESTAMP', [raw]);
  await conn.run('DELETE FROM log_cursors WHERE updated_at < $1::TIMESTAMP', [fine]);
  for (const { name } of rollupTables('5m')) await conn.run(`DELETE FROM ${name} WHERE bucket < $1::TIMESTAMP`, [fine]);
  for (const { name } of rollupTables('1h')) await conn.run(`DELETE FROM ${name} WHERE bucket < $1::TIMESTAMP`, [daysAgo(HOURLY_ROLLUP_DAYS)]);
  await pruneValueIds(conn);
};
