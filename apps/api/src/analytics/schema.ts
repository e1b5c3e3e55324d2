import type { DuckDBConnection } from '@duckdb/node-api';
import { backfillBlocked, blockedRollupMissing } from './blocked-rollup';
import { WIDE_DIMS, wideRollup } from './dimensions';
import { BASE_METRICS, RESOLUTIONS, rollupTables, VALUE_HASH } from './tables';
import { foldRows } from './rollup';
import { rows } from './sql';
import { NUMBERED_DIMS, numberExisting, VALUE_ID, VALUE_ID_TABLES } from './value-ids';

const counters = (names: readonly string[]) => names.map((n) => `${n} BIGINT NOT NULL`).join(', ');

const ACCESS_LOG = `CREATE TABLE IF NOT EXISTS access_log (
  seq BIGINT NOT NULL, node_id INTEGER NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL, time TIMESTAMP NOT NULL,
  request_id VARCHAR NOT NULL, client_ip VARCHAR NOT NULL, country VARCHAR NOT NULL, region VARCHAR NOT NULL, city VARCHAR NOT NULL,
  isp VARCHAR NOT NULL, asn VARCHAR NOT NULL, scheme VARCHAR NOT NULL, method VARCHAR NOT NULL, uri VARCHAR NOT NULL, status INTEGER NOT NULL,
  bytes_sent BIGINT NOT NULL, bytes_received BIGINT NOT NULL, request_time DOUBLE NOT NULL, upstream_time DOUBLE, cache_status VARCHAR NOT NULL,
  http_version VARCHAR NOT NULL, referer VARCHAR NOT NULL, user_agent VARCHAR NOT NULL, block_cause VARCHAR NOT NULL, block_rule VARCHAR NOT NULL,
  block_action VARCHAR NOT NULL)`;

const TABLES = [
  ACCESS_LOG,
  /** The highest offset stored per node and log file: a line at or below it was stored already. */
  `CREATE TABLE IF NOT EXISTS log_cursors (node_id INTEGER NOT NULL, file VARCHAR NOT NULL, "offset" BIGINT NOT NULL, updated_at TIMESTAMP NOT NULL, PRIMARY KEY (node_id, file))`,
  /** Batches without offsets, known by a digest of their text. */
  `CREATE TABLE IF NOT EXISTS batches (node_id INTEGER NOT NULL, digest VARCHAR NOT NULL, id BIGINT NOT NULL, received_at TIMESTAMP NOT NULL, PRIMARY KEY (node_id, digest))`,
  /** `folded`: raw rows with seq up to it are in the rollups. */
  `CREATE TABLE IF NOT EXISTS rollup_state (id INTEGER PRIMARY KEY, folded BIGINT NOT NULL)`,
  ...VALUE_ID_TABLES,
  ...RESOLUTIONS.flatMap((r) => rollupTables(r).map(({ name, keys, metrics, extra }) => `CREATE TABLE IF NOT EXISTS ${name} (${keys}, ${counters(metrics)}${extra})`)),
];

const columnsOf = async (conn: DuckDBConnection, table: string) =>
  new Set((await rows(conn, `SELECT column_name FROM duckdb_columns() WHERE table_name = $1`, [table])).map((r) => String(r.column_name)));

/**
 * The first store kept fewer columns per line, a batch id instead of a sequence, and one 5-minute rollup per site and
 * domain. Its lines move to the new table in time order; its rollup buckets that raw lines no longer fully cover (they
 * were pruned) are kept as base rollups of node 0, and the raw lines after them are folded again from scratch; the
 * dimension rollups come from the raw lines alone.
 */
const migrateFirstStore = async (conn: DuckDBConnection) => {
  await conn.run(ACCESS_LOG.replace('access_log', 'access_log_next'));
  await conn.run(`INSERT INTO access_log_next
    SELECT row_number() OVER (ORDER BY time, batch_id), node_id, site_id, domain, time, '', coalesce(client_ip, ''), coalesce(country, ''), '', '', '',
           coalesce(asn, ''), '', coalesce(method, ''), coalesce(uri, ''), coalesce(status, 0), coalesce(bytes_sent, 0), coalesce(bytes_received, 0),
           coalesce(request_time, 0), upstream_time, coalesce(cache_status, ''), coalesce(http_version, ''), coalesce(referer, ''), coalesce(user_agent, ''),
           coalesce(block_cause, ''), '', ''
    FROM access_log`);
  await conn.run('DROP TABLE access_log');
  await conn.run('ALTER TABLE access_log_next RENAME TO access_log');
  const boundary = `coalesce((SELECT time_bucket(INTERVAL 5 MINUTE, min(time)) + INTERVAL 5 MINUTE FROM access_log), 'infinity'::TIMESTAMP)`;
  await conn.run(`INSERT INTO base_5m SELECT bucket, site_id, domain, 0, requests, requests - status_other, bytes_sent, bytes_received, cache_hits,
    cache_bytes, 0, 0, 0, 0, 0, 0, 0, 0, status_2xx, status_3xx, status_4xx, status_5xx FROM rollup_5m WHERE bucket < ${boundary}`);
  await conn.run(`INSERT INTO base_1h SELECT time_bucket(INTERVAL 1 HOUR, bucket), site_id, domain, node_id, ${BASE_METRICS.map((m) => `sum(${m})`).join(', ')}
    FROM base_5m GROUP BY ALL`);
  await conn.run(`INSERT INTO rollup_state SELECT 1, coalesce(max(seq), 0) FROM access_log WHERE time < ${boundary}`);
  await foldRows(conn, { range: 'seq <= (SELECT folded FROM rollup_state WHERE id = 1)', dimsOnly: true });
  await conn.run('DROP TABLE rollup_5m');
};

/**
 * The second store kept its rollups under primary keys, all dimensions in one table: the rows move to keyless tables,
 * the wide dimensions' to tables of their own.
 */
const migrateKeyedRollups = async (conn: DuckDBConnection) => {
  for (const r of RESOLUTIONS) {
    await conn.run(`ALTER TABLE base_${r} RENAME TO base_${r}_keyed`);
    await conn.run(`ALTER TABLE dim_${r} RENAME TO dim_${r}_keyed`);
  }
  for (const stmt of TABLES.slice(4)) await conn.run(stmt);
  for (const r of RESOLUTIONS) {
    await conn.run(`INSERT INTO base_${r} SELECT * FROM base_${r}_keyed ORDER BY bucket`);
    const wide = WIDE_DIMS.map((d) => `'${d}'`).join(', ');
    await conn.run(`INSERT INTO dim_${r} SELECT * FROM dim_${r}_keyed WHERE dim NOT IN (${wide}) ORDER BY bucket`);
    for (const d of WIDE_DIMS) await conn.run(`INSERT INTO ${wideRollup(d)}_${r} BY NAME SELECT * EXCLUDE (dim) FROM dim_${r}_keyed WHERE dim = '${d}' ORDER BY bucket`);
    await conn.run(`DROP TABLE base_${r}_keyed`);
    await conn.run(`DROP TABLE dim_${r}_keyed`);
  }
};

/** The third store's wide rollups had no value hashes: they get the column; rows without one (moved here) get theirs. */
const hashWideValues = async (conn: DuckDBConnection) => {
  for (const r of RESOLUTIONS) {
    for (const d of WIDE_DIMS) {
      const table = `${wideRollup(d)}_${r}`;
      if (!(await columnsOf(conn, table)).has(VALUE_HASH)) await conn.run(`ALTER TABLE ${table} ADD COLUMN ${VALUE_HASH} UBIGINT`);
      await conn.run(`UPDATE ${table} SET ${VALUE_HASH} = hash(value) WHERE ${VALUE_HASH} IS NULL`);
    }
  }
};

/** The fourth store's numbered wide rollups (client addresses) had no value numbers: their rows (and rows moved here) get them. */
const numberWideValues = async (conn: DuckDBConnection) => {
  for (const dim of NUMBERED_DIMS) {
    for (const r of RESOLUTIONS) {
      const table = `${wideRollup(dim)}_${r}`;
      await numberExisting(conn, { dim, table, missing: !(await columnsOf(conn, table)).has(VALUE_ID) });
    }
  }
};

/** Creates the tables, or brings a data directory of an earlier version to them. */
export const prepareSchema = async (conn: DuckDBConnection) => {
  await conn.run('BEGIN TRANSACTION');
  try {
    const blockedMissing = await blockedRollupMissing(conn);
    const first = (await columnsOf(conn, 'access_log')).has('batch_id');
    const [{ keyed }] = await rows(conn, `SELECT count(*) AS keyed FROM duckdb_constraints() WHERE table_name = 'base_5m' AND constraint_type = 'PRIMARY KEY'`);
    if (Number(keyed)) await migrateKeyedRollups(conn);
    for (const stmt of TABLES.slice(first ? 1 : 0)) await conn.run(stmt);
    if (first) await migrateFirstStore(conn);
    await hashWideValues(conn);
    await numberWideValues(conn);
    await conn.run('INSERT INTO rollup_state VALUES (1, 0) ON CONFLICT DO NOTHING');
    if (blockedMissing) await backfillBlocked(conn);
    const [{ next }] = await rows(conn, 'SELECT coalesce(max(seq), 0) + 1 AS next FROM access_log');
    await conn.run(`CREATE SEQUENCE IF NOT EXISTS raw_seq START ${Number(next)}`);
    const [{ seq }] = await rows(conn, `SELECT nextval('raw_seq') AS seq`);
    if (Number(seq) < Number(next)) await conn.run(`CREATE OR REPLACE SEQUENCE raw_seq START ${Number(next)}`);
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
};
