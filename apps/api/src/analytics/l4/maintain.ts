import type { DuckDBConnection } from '@duckdb/node-api';
import { statisticsSchemas } from '@edgekeep/contract';
import { daysAgo, HOURLY_ROLLUP_DAYS } from '../rollup';
import { stamp } from '../sql';
import { L4_RESOLUTIONS, l4Rollup } from './schema';

const HOUR_MS = 3_600_000;

/**
 * Each batch appends its sums to the rollups: the rows from the hour of `from` on are merged into one per bucket and
 * key (reads sum either way, so the numbers do not change, only the rows they read).
 */
export const compactL4 = async (conn: DuckDBConnection, { from }: { from: Date }) => {
  const since = stamp(new Date(Math.floor(from.getTime() / HOUR_MS) * HOUR_MS));
  await conn.run('BEGIN TRANSACTION');
  try {
    for (const r of L4_RESOLUTIONS) {
      const table = l4Rollup(r);
      await conn.run(
        `CREATE OR REPLACE TEMP TABLE l4_merge AS SELECT bucket, site_id, protocol, outcome, dim, value, sum(bytes)::BIGINT AS bytes,
           sum(connections)::BIGINT AS connections FROM ${table} WHERE bucket >= $1::TIMESTAMP GROUP BY ALL`,
        [since],
      );
      await conn.run(`DELETE FROM ${table} WHERE bucket >= $1::TIMESTAMP`, [since]);
      await conn.run(`INSERT INTO ${table} SELECT * FROM l4_merge ORDER BY bucket`);
      await conn.run('DROP TABLE l4_merge');
    }
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
};

/** Raw stream lines go after the retention, the rollups after the HTTP rollups' spans (35 days of 5 minutes, 400 of hours). */
export const pruneL4 = async (conn: DuckDBConnection, { rawRetentionDays }: { rawRetentionDays: number }) => {
  await conn.run('DELETE FROM l4_log WHERE time < $1::TIMESTAMP', [daysAgo(rawRetentionDays)]);
  await conn.run(`DELETE FROM ${l4Rollup('5m')} WHERE bucket < $1::TIMESTAMP`, [daysAgo(statisticsSchemas.FIVE_MINUTE_ROLLUP_DAYS)]);
  await conn.run(`DELETE FROM ${l4Rollup('1h')} WHERE bucket < $1::TIMESTAMP`, [daysAgo(HOURLY_ROLLUP_DAYS)]);
};
