import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { lastOffset } from '../load';
import { idList, num, rows } from '../sql';
import { L4_RESOLUTIONS, L4_ROLLUP_DIMS, l4Rollup } from './schema';

/** The fields of a stream line (contract agentProtocol.streamLogLine) as read_json types them. */
const FIELDS = {
  time: 'VARCHAR', siteId: 'INTEGER', port: 'INTEGER', protocol: 'VARCHAR', clientIp: 'VARCHAR', outcome: 'VARCHAR', status: 'INTEGER',
  bytesSent: 'BIGINT', bytesReceived: 'BIGINT', sessionTime: 'DOUBLE', country: 'VARCHAR', asn: 'VARCHAR', coloCountry: 'VARCHAR', offset: 'BIGINT',
} as const;
const COLUMNS = `{${Object.entries(FIELDS).map(([k, t]) => `"${k}": '${t}'`).join(', ')}}`;
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const BUCKETS = { '5m': 'INTERVAL 5 MINUTE', '1h': 'INTERVAL 1 HOUR' } as const;

/** The cursor key of a stream log file: apart from the access logs' files of the same node. */
const cursorFile = (file: string) => `stream:${file}`;

export type StreamBatch = { nodeId: number; file?: string; ndjson: Buffer; served: number[]; shiftMs?: number };

/**
 * Stores a node's batch of stream lines once: the valid lines of its served sites past its file's cursor (or, without
 * offsets, a batch whose digest is new) go to l4_log and, summed, to the 5-minute and hourly rollups, in the
 * transaction that moves the cursor. Answers how many lines were stored, of which sites, and the earliest line's time.
 */
export const loadStreamBatch = async (conn: DuckDBConnection, { batch, tmpDir }: { batch: StreamBatch; tmpDir: string }) => {
  const file = path.join(tmpDir, `${randomUUID()}.ndjson`);
  await fs.writeFile(file, batch.ndjson);
  const node = Number(batch.nodeId);
  const offset = batch.file ? lastOffset(batch.ndjson) : undefined;
  await conn.run('BEGIN TRANSACTION');
  try {
    let after: number | null = null;
    if (batch.file !== undefined && offset !== undefined) {
      const [cursor] = await rows(conn, 'SELECT "offset" FROM log_cursors WHERE node_id = $1 AND file = $2', [node, cursorFile(batch.file)]);
      after = cursor ? num(cursor.offset) : -1;
      await conn.run(
        `INSERT INTO log_cursors VALUES ($1, $2, $3, now()::TIMESTAMP)
         ON CONFLICT DO UPDATE SET "offset" = greatest("offset", excluded."offset"), updated_at = excluded.updated_at`,
        [node, cursorFile(batch.file), offset],
      );
    } else {
      const digest = createHash('sha256').update('stream\n').update(batch.ndjson).digest('hex');
      const [seen] = await rows(conn, 'SELECT 1 FROM batches WHERE node_id = $1 AND digest = $2', [node, digest]);
      if (seen) {
        await conn.run('COMMIT');
        return { stored: 0, siteIds: [], first: undefined };
      }
      await conn.run(`INSERT INTO batches VALUES ($1, $2, 0, now()::TIMESTAMP)`, [node, digest]);
    }
    const served = batch.served.length ? `list_contains([${idList(batch.served)}]::INTEGER[], "siteId")` : 'false';
    await conn.run(
      `CREATE OR REPLACE TEMP TABLE l4_batch AS
       SELECT ${node} AS node_id, "siteId" AS site_id, timezone('UTC', ts) AS time, "port" AS port, "protocol" AS protocol, "clientIp" AS client_ip,
              "outcome" AS outcome, coalesce("status", 0) AS status, "bytesSent" AS bytes_sent, "bytesReceived" AS bytes_received,
              coalesce("sessionTime", 0) AS session_time, coalesce("country", '') AS country, coalesce("asn", '') AS asn,
              coalesce("coloCountry", '') AS colo_country
       FROM (SELECT *, try_cast("time" AS TIMESTAMPTZ) + to_milliseconds(${Math.trunc(Number(batch.shiftMs ?? 0))}) AS ts
             FROM read_json(${quote(file)}, columns = ${COLUMNS}, format = 'newline_delimited', ignore_errors = true))
       WHERE ${served} AND ts IS NOT NULL AND ts < now() + INTERVAL 1 DAY AND "port" BETWEEN 1 AND 65535 AND "protocol" IN ('TCP', 'UDP')
         AND "outcome" IN ('pass', 'drop') AND coalesce("clientIp", '') <> '' AND "bytesSent" >= 0 AND "bytesReceived" >= 0
         ${after === null ? '' : `AND "offset" > ${after}`}`,
    );
    await conn.run('INSERT INTO l4_log SELECT * FROM l4_batch');
    const dims = Object.entries(L4_ROLLUP_DIMS).map(([dim, value]) => `SELECT '${dim}' AS dim, ${value} AS value, * FROM l4_batch`).join(' UNION ALL ');
    for (const r of L4_RESOLUTIONS) {
      await conn.run(
        `INSERT INTO ${l4Rollup(r)} SELECT time_bucket(${BUCKETS[r]}, time), site_id, protocol, outcome, dim, value,
           sum(bytes_sent + bytes_received), count(*) FROM (${dims}) GROUP BY ALL`,
      );
    }
    const stored = await rows(conn, 'SELECT site_id, count(*) AS n, epoch_ms(min(time)) AS first FROM l4_batch GROUP BY site_id ORDER BY site_id');
    await conn.run('DROP TABLE l4_batch');
    await conn.run('COMMIT');
    const first = stored.length ? new Date(Math.min(...stored.map((r) => num(r.first)))) : undefined;
    return { stored: stored.reduce((n, r) => n + num(r.n), 0), siteIds: stored.map((r) => num(r.site_id)), first };
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  } finally {
    await fs.rm(file, { force: true });
  }
};
