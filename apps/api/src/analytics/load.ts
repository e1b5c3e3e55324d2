import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { idList, num, rows } from './sql';

/** The fields of an access line (contract agentProtocol.accessLogLine) as read_json types them. */
const FIELDS = {
  time: 'VARCHAR', siteId: 'INTEGER', domain: 'VARCHAR', clientIp: 'VARCHAR', country: 'VARCHAR', asn: 'VARCHAR', method: 'VARCHAR',
  uri: 'VARCHAR', status: 'INTEGER', bytesSent: 'BIGINT', bytesReceived: 'BIGINT', requestTime: 'DOUBLE', upstreamTime: 'DOUBLE',
  cacheStatus: 'VARCHAR', httpVersion: 'VARCHAR', referer: 'VARCHAR', userAgent: 'VARCHAR', blockCause: 'VARCHAR', requestId: 'VARCHAR',
  scheme: 'VARCHAR', region: 'VARCHAR', city: 'VARCHAR', isp: 'VARCHAR', blockRule: 'VARCHAR', blockAction: 'VARCHAR', offset: 'BIGINT',
} as const;
const COLUMNS = `{${Object.entries(FIELDS).map(([k, t]) => `"${k}": '${t}'`).join(', ')}}`;
const text = (field: string) => `coalesce("${field}", '')`;
/** access_log's columns (after seq and node_id) from a line. */
const ROW = [
  '"siteId"', '"domain"', 'timezone(\'UTC\', ts)', text('requestId'), '"clientIp"', text('country'), text('region'), text('city'), text('isp'),
  text('asn'), text('scheme'), text('method'), text('uri'), '"status"', '"bytesSent"', '"bytesReceived"', 'coalesce("requestTime", 0)', '"upstreamTime"',
  text('cacheStatus'), text('httpVersion'), text('referer'), text('userAgent'), text('blockCause'), text('blockRule'), text('blockAction'),
].join(', ');

const readLines = (file: string) => `read_json('${file.replaceAll("'", "''")}', columns = ${COLUMNS}, format = 'newline_delimited', ignore_errors = true)`;

/** Lines in a batch (the empty ones aside), counted without parsing them. */
export const countLines = (ndjson: string) => {
  let n = 0;
  for (let start = 0; start < ndjson.length; ) {
    let end = ndjson.indexOf('\n', start);
    if (end < 0) end = ndjson.length;
    if (ndjson.slice(start, end).trim() !== '') n++;
    start = end + 1;
  }
  return n;
};

/** The offset of the batch's last line: lines come in file order, so it is the highest. */
const lastOffset = (ndjson: string) => {
  const trimmed = ndjson.trimEnd();
  try {
    const offset = (JSON.parse(trimmed.slice(trimmed.lastIndexOf('\n') + 1)) as { offset?: unknown }).offset;
    return typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
  } catch {
    return undefined;
  }
};

export type Batch = { nodeId: number; file?: string; ndjson: string; served: number[] };

/**
 * Bulk-loads one node's batch: the text goes to a file under `tmpDir`, DuckDB reads it (read_json) and keeps the
 * valid lines of the served sites in one INSERT, in the transaction that moves the file's cursor (or records the
 * batch's digest when its lines carry no offsets). Answers the sites whose lines were stored and how many.
 */
export const loadBatch = async (conn: DuckDBConnection, { batch, tmpDir }: { batch: Batch; tmpDir: string }) => {
  const offset = batch.file ? lastOffset(batch.ndjson) : undefined;
  const cursor = batch.file !== undefined && offset !== undefined ? { file: batch.file, offset } : undefined;
  const digest = cursor ? undefined : createHash('sha256').update(batch.ndjson).digest('hex');
  const file = path.join(tmpDir, `${randomUUID()}.ndjson`);
  await fs.writeFile(file, batch.ndjson);
  await conn.run('BEGIN TRANSACTION');
  try {
    const [seen] = cursor
      ? await rows(conn, 'SELECT "offset" FROM log_cursors WHERE node_id = $1 AND file = $2', [batch.nodeId, cursor.file])
      : await rows(conn, 'SELECT -1 AS "offset" FROM batches WHERE node_id = $1 AND digest = $2', [batch.nodeId, digest!]);
    if (seen && !cursor) {
      await conn.run('ROLLBACK');
      return { stored: 0, siteIds: [] };
    }
    const after = seen ? num(seen.offset) : -1;
    const served = batch.served.length ? idList(batch.served) : 'NULL';
    const [{ floor }] = await rows(conn, `SELECT nextval('raw_seq') AS floor`);
    await conn.run(
      `INSERT INTO access_log SELECT nextval('raw_seq'), ${Number(batch.nodeId)}, ${ROW}
       FROM (SELECT *, try_cast("time" AS TIMESTAMPTZ) AS ts FROM ${readLines(file)})
       WHERE "siteId" IN (${served}) AND ts IS NOT NULL AND ts < now() + INTERVAL 1 DAY AND "domain" IS NOT NULL AND "clientIp" IS NOT NULL
         AND "status" IS NOT NULL AND "bytesSent" >= 0 AND "bytesReceived" >= 0 ${cursor ? `AND "offset" > ${after}` : ''}`,
    );
    const stored = await rows(conn, 'SELECT site_id, count(*) AS n FROM access_log WHERE seq > $1 GROUP BY site_id ORDER BY site_id', [num(floor)]);
    if (cursor && cursor.offset > after) {
      await conn.run(
        `INSERT INTO log_cursors VALUES ($1, $2, $3, now()::TIMESTAMP)
         ON CONFLICT DO UPDATE SET "offset" = greatest("offset", excluded."offset"), updated_at = excluded.updated_at`,
        [batch.nodeId, cursor.file, cursor.offset],
      );
    }
    if (digest) await conn.run(`INSERT INTO batches VALUES ($1, $2, 0, now()::TIMESTAMP)`, [batch.nodeId, digest]);
    await conn.run('COMMIT');
    return { stored: stored.reduce((n, r) => n + num(r.n), 0), siteIds: stored.map((r) => num(r.site_id)) };
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  } finally {
    await fs.rm(file, { force: true });
  }
};
