import type { DuckDBConnection } from '@duckdb/node-api';
import { statisticsSchemas } from '@edgekeep/contract';
import { DIM_VALUES, SMALL_DIMS, WIDE_DIMS, wideRollup } from './dimensions';
import { BASE_METRICS, DIM_METRICS, RESOLUTIONS, rollupTables, VALUE_HASH } from './tables';
import { num, rows, stamp } from './sql';

/** Hourly rollups are kept this long; the 5-minute ones for the contract's FIVE_MINUTE_ROLLUP_DAYS. */
export const HOURLY_ROLLUP_DAYS = 400;

/** A cache answer that came from the edge's cache (nginx `$upstream_cache_status`). */
const CACHE_HIT = `cache_status IN ('HIT', 'STALE', 'UPDATING', 'REVALIDATED')`;
const BLOCKED = `block_cause <> ''`;
const CHINA = `country = 'CN'`;
/** 444 and 499: nginx closed the connection without an answer, or the client left before one. */
const RESPONDED = 'status NOT IN (444, 499)';
const count = (where: string) => `count(*) FILTER (WHERE ${where})`;
const bytes = (where: string) => `coalesce(sum(bytes_sent) FILTER (WHERE ${where}), 0)`;

const BASE_SUMS: Record<(typeof BASE_METRICS)[number], string> = {
  requests: 'count(*)',
  responses: count(RESPONDED),
  bytes_sent: 'sum(bytes_sent)',
  bytes_received: 'sum(bytes_received)',
  cache_hits: count(CACHE_HIT),
  cache_bytes: bytes(CACHE_HIT),
  blocked: count(BLOCKED),
  blocked_bytes: bytes(BLOCKED),
  upstream_requests: count('upstream_time IS NOT NULL'),
  china_requests: count(CHINA),
  china_bytes: bytes(CHINA),
  china_blocked: count(`${CHINA} AND ${BLOCKED}`),
  china_blocked_bytes: bytes(`${CHINA} AND ${BLOCKED}`),
  blocked_responses: count(`${BLOCKED} AND ${RESPONDED}`),
  status_2xx: count('status BETWEEN 200 AND 299'),
  status_3xx: count('status BETWEEN 300 AND 399'),
  status_4xx: count('status BETWEEN 400 AND 499'),
  status_5xx: count('status BETWEEN 500 AND 599'),
};
const DIM_SUMS = Object.fromEntries(DIM_METRICS.map((m) => [m, BASE_SUMS[m]])) as Record<(typeof DIM_METRICS)[number], string>;

const sums = (metrics: readonly string[]) => metrics.map((m) => `sum(${m}) AS ${m}`).join(', ');
const reBucket = (metrics: readonly string[]) => `time_bucket(INTERVAL 1 HOUR, bucket) AS bucket, * EXCLUDE (bucket, ${metrics.join(', ')}), ${sums(metrics)}`;

/** Appends the 5-minute sums the SELECT makes to `<name>_5m`, and their hourly sums to `<name>_1h`. */
const append = async (conn: DuckDBConnection, { name, metrics, select }: { name: string; metrics: readonly string[]; select: string }) => {
  await conn.run(`CREATE TEMP TABLE fold_rows AS ${select}`);
  await conn.run(`INSERT INTO ${name}_5m BY NAME SELECT * FROM fold_rows ORDER BY bucket`);
  await conn.run(`INSERT INTO ${name}_1h BY NAME SELECT ${reBucket(metrics)} FROM fold_rows GROUP BY ALL ORDER BY bucket`);
  await conn.run('DROP TABLE fold_rows');
};

const BUCKET = 'time_bucket(INTERVAL 5 MINUTE, time) AS bucket';
const dimColumn = (dim: string) => `"dim_${dim}"`;
const dimSums = DIM_METRICS.map((m) => `${DIM_SUMS[m]} AS ${m}`).join(', ');

/** Adds the raw rows of `range` to the 5-minute and hourly rollups (the dimension ones only, with `dimsOnly`). */
export const foldRows = async (conn: DuckDBConnection, { range, dimsOnly = false }: { range: string; dimsOnly?: boolean }) => {
  if (!dimsOnly) {
    await append(conn, {
      name: 'base',
      metrics: BASE_METRICS,
      select: `SELECT ${BUCKET}, site_id, domain, node_id, ${BASE_METRICS.map((m) => `${BASE_SUMS[m]} AS ${m}`).join(', ')} FROM access_log WHERE ${range} GROUP BY ALL`,
    });
  }
  await append(conn, {
    name: 'dim',
    metrics: DIM_METRICS,
    // one grouping set per dimension: its value is the one column of the set that is not NULL
    select: `SELECT bucket, site_id, domain, CASE ${SMALL_DIMS.map((d) => `WHEN GROUPING(${dimColumn(d)}) = 0 THEN '${d}'`).join(' ')} END AS dim,
        coalesce(${SMALL_DIMS.map(dimColumn).join(', ')}) AS value, ${dimSums}
      FROM (SELECT ${BUCKET}, *, ${SMALL_DIMS.map((d) => `coalesce(${DIM_VALUES[d]}, '') AS ${dimColumn(d)}`).join(', ')} FROM access_log WHERE ${range})
      GROUP BY GROUPING SETS (${SMALL_DIMS.map((d) => `(bucket, site_id, domain, ${dimColumn(d)})`).join(', ')})`,
  });
  for (const dim of WIDE_DIMS) {
    await append(conn, {
      name: wideRollup(dim),
      metrics: DIM_METRICS,
      select: `SELECT ${BUCKET}, site_id, domain, coalesce(${DIM_VALUES[dim]}, '') AS value, hash(value) AS ${VALUE_HASH}, ${dimSums}
        FROM access_log WHERE ${range} GROUP BY ALL`,
    });
  }
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

const daysAgo = (days: number) => stamp(new Date(Date.now() - days * 86_400_000));

/**
 * Drops what is past its retention: raw lines (only once folded), batch digests and idle file cursors with them,
 * 5-minute and hourly rollups.
 */
export const prune = async (conn: DuckDBConnection, { rawRetentionDays }: { rawRetentionDays: number }) => {
  const raw = daysAgo(rawRetentionDays);
  const fine = daysAgo(statisticsSchemas.FIVE_MINUTE_ROLLUP_DAYS);
  await conn.run('DELETE FROM access_log WHERE time < $1::TIMESTAMP AND seq <= (SELECT folded FROM rollup_state WHERE id = 1)', [raw]);
  await conn.run('DELETE FROM batches WHERE received_at < $1::TIMESTAMP', [raw]);
  await conn.run('DELETE FROM log_cursors WHERE updated_at < $1::TIMESTAMP', [fine]);
  for (const { name } of rollupTables('5m')) await conn.run(`DELETE FROM ${name} WHERE bucket < $1::TIMESTAMP`, [fine]);
  for (const { name } of rollupTables('1h')) await conn.run(`DELETE FROM ${name} WHERE bucket < $1::TIMESTAMP`, [daysAgo(HOURLY_ROLLUP_DAYS)]);
};
