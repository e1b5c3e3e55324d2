import type { DuckDBConnection } from '@duckdb/node-api';
import { rows } from './sql';

/**
 * The refused lines' rollups (`blocked_5m`, `blocked_1h`): one row per bucket, site, domain, block cause, rule,
 * country, city and client address, of the lines with a block cause only. They answer what the other rollups
 * cannot: refusals of one cause by address, country, city, domain or rule (the security dashboard). Folded in the
 * same transaction as the other rollups, compacted and pruned with them.
 */
const KEYS = ['site_id', 'domain', 'block_cause', 'block_rule', 'country', 'city', 'client_ip'] as const;
const METRICS = ['requests', 'bytes_sent'] as const;
const SUMS = 'count(*) AS requests, sum(bytes_sent) AS bytes_sent';

export const blockedRollupTable = (r: '5m' | '1h') => ({
  name: `blocked_${r}`,
  keys: `bucket TIMESTAMP NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL, block_cause VARCHAR NOT NULL, block_rule VARCHAR NOT NULL,
    country VARCHAR NOT NULL, city VARCHAR NOT NULL, client_ip VARCHAR NOT NULL`,
  metrics: METRICS,
  extra: '',
});

const select = (range: string) =>
  `SELECT time_bucket(INTERVAL 5 MINUTE, time) AS bucket, ${KEYS.join(', ')}, ${SUMS} FROM access_log WHERE (${range}) AND block_cause <> '' GROUP BY ALL`;

/** What a fold appends to the refused lines' rollups for the raw rows of `range`: the temp table to create, and what rollup.ts appends from it. */
export const blockedFold = (range: string) => ({
  create: `CREATE TEMP TABLE fold_blocked AS ${select(range)}`,
  append: { name: 'blocked', metrics: METRICS, from: 'fold_blocked' },
});

/** Whether the store predates the refused lines' rollups (then they are built from the raw lines still kept). */
export const blockedRollupMissing = async (conn: DuckDBConnection) =>
  !(await rows(conn, `SELECT 1 FROM duckdb_tables() WHERE table_name = 'blocked_5m'`)).length;

/** Builds the new, empty rollups from the raw lines already folded into the others. */
export const backfillBlocked = async (conn: DuckDBConnection) => {
  await conn.run(`INSERT INTO blocked_5m BY NAME ${select('seq <= (SELECT folded FROM rollup_state WHERE id = 1)')} ORDER BY bucket`);
  await conn.run(
    `INSERT INTO blocked_1h BY NAME SELECT time_bucket(INTERVAL 1 HOUR, bucket) AS bucket, ${KEYS.join(', ')}, sum(requests) AS requests, sum(bytes_sent) AS bytes_sent
     FROM blocked_5m GROUP BY ALL ORDER BY bucket`,
  );
};
