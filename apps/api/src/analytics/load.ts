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
  '"siteId"', '"domain"', 'timezone(\'UTC\', l.ts + b.shift)', text('requestId'), '"clientIp"', text('country'), text('region'), text('city'), text('isp'),
  text('asn'), text('scheme'), text('method'), text('uri'), '"status"', '"bytesSent"', '"bytesReceived"', 'coalesce("requestTime", 0)', '"upstreamTime"',
  text('cacheStatus'), text('httpVersion'), text('referer'), text('userAgent'), text('blockCause'), text('blockRule'), text('blockAction'),
].join(', ');

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const readLines = (files: string[]) =>
  `read_json([${files.map(quote).join(', ')}], columns = ${COLUMNS}, format = 'newline_delimited', ignore_errors = true, filename = true)`;

const SPACE = new Set([0x20, 0x09, 0x0d, 0x0a]);
/** Whether bytes [from, to) of the text hold more than white space. */
const filled = (text: Buffer, from: number, to: number) => {
  for (let i = from; i < to; i++) if (!SPACE.has(text[i])) return true;
  return false;
};

/** Lines in a batch (the empty ones aside), counted without parsing them or copying the text. */
export const countLines = (ndjson: Buffer) => {
  let n = 0;
  for (let start = 0; start < ndjson.length; ) {
    let end = ndjson.indexOf(0x0a, start);
    if (end < 0) end = ndjson.length;
    if (filled(ndjson, start, end)) n++;
    start = end + 1;
  }
  return n;
};

/** The batch's last line, parsed (undefined when it is not a JSON object). */
const lastLine = (ndjson: Buffer) => {
  let end = ndjson.length;
  while (end > 0 && SPACE.has(ndjson[end - 1])) end--;
  try {
    const line: unknown = JSON.parse(ndjson.toString('utf8', ndjson.lastIndexOf(0x0a, end - 1) + 1, end));
    return typeof line === 'object' && line !== null ? (line as { offset?: unknown; time?: unknown }) : undefined;
  } catch {
    return undefined;
  }
};

/** The offset of the batch's last line: lines come in file order, so it is the highest. */
export const lastOffset = (ndjson: Buffer) => {
  const offset = lastLine(ndjson)?.offset;
  return typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
};

/** The time of the batch's last line, its newest, in epoch milliseconds. */
export const lastTime = (ndjson: Buffer) => {
  const time = lastLine(ndjson)?.time;
  const ms = typeof time === 'string' ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** A (node, log file) pair, or a (node, digest) one, as a key. */
const keyOf = (nodeId: number, file: string) => JSON.stringify([nodeId, file]);

/** A node's batch as it arrived: NDJSON bytes, never copied into a string. */
export type Batch = { nodeId: number; file?: string; ndjson: Buffer; served: number[]; shiftMs?: number };
export type Loaded = { stored: number; siteIds: number[] };

/** How a batch is known to have been stored: its file's cursor (the offset of its last line), else its digest. */
const identify = (batch: Batch) => {
  const offset = batch.file ? lastOffset(batch.ndjson) : undefined;
  if (batch.file !== undefined && offset !== undefined) return { cursor: { file: batch.file, offset } };
  return { digest: createHash('sha256').update(batch.ndjson).digest('hex') };
};

/**
 * Bulk-loads batches of several nodes, one each, in one transaction (group commit): each text goes to a file under
 * `tmpDir`, DuckDB reads them all at once (read_json over the list) and keeps the valid lines of each batch's served
 * sites past its file's cursor, in the transaction that moves the cursors (or records the digests of batches whose
 * lines carry no offsets). Answers, per batch, how many lines were stored and of which sites. `known` holds the
 * cursors committed so far by this writer (the only one): only the others are read.
 */
export const loadBatches = async (
  conn: DuckDBConnection,
  { batches, tmpDir, known: committed }: { batches: Batch[]; tmpDir: string; known: Map<string, number> },
): Promise<Loaded[]> => {
  const known = batches.map((batch) => ({ batch, ...identify(batch), path: path.join(tmpDir, `${randomUUID()}.ndjson`) }));
  await Promise.all(known.map((k) => fs.writeFile(k.path, k.batch.ndjson)));
  await conn.run('BEGIN TRANSACTION');
  try {
    const withCursor = known.filter((k) => k.cursor);
    const cursors = new Map<string, number>();
    const unknown = withCursor.filter((k) => {
      const offset = committed.get(keyOf(k.batch.nodeId, k.cursor!.file));
      if (offset !== undefined) cursors.set(keyOf(k.batch.nodeId, k.cursor!.file), offset);
      return offset === undefined;
    });
    if (unknown.length) {
      const pairs = unknown.map((k) => `(${Number(k.batch.nodeId)}, ${quote(k.cursor!.file)})`).join(', ');
      for (const r of await rows(conn, `SELECT node_id, file, "offset" FROM log_cursors WHERE (node_id, file) IN (${pairs})`)) {
        cursors.set(keyOf(num(r.node_id), String(r.file)), num(r.offset));
      }
    }
    const digests = new Set<string>();
    const withDigest = known.filter((k) => k.digest);
    if (withDigest.length) {
      const pairs = withDigest.map((k) => `(${Number(k.batch.nodeId)}, '${k.digest}')`).join(', ');
      for (const r of await rows(conn, `SELECT node_id, digest FROM batches WHERE (node_id, digest) IN (${pairs})`)) digests.add(keyOf(num(r.node_id), String(r.digest)));
    }
    /** Each batch's lines past this offset are new (null: no offsets, the whole batch is new); undefined: skipped. */
    const afters = known.map((k) => {
      if (k.digest !== undefined) {
        const key = keyOf(k.batch.nodeId, k.digest);
        if (digests.has(key)) return undefined;
        digests.add(key);
        return null;
      }
      const key = keyOf(k.batch.nodeId, k.cursor!.file);
      const after = cursors.get(key) ?? -1;
      cursors.set(key, Math.max(after, k.cursor!.offset));
      return after;
    });
    const loading = known.map((k, i) => ({ ...k, no: i, after: afters[i] })).filter((k) => k.after !== undefined);
    const loaded: Loaded[] = known.map(() => ({ stored: 0, siteIds: [] }));
    if (loading.length) {
      const values = loading
        .map((k) => `(${quote(k.path)}, ${Number(k.batch.nodeId)}, ${k.after ?? 'NULL'}, [${k.batch.served.length ? idList(k.batch.served) : ''}]::INTEGER[], to_milliseconds(${Math.trunc(Number(k.batch.shiftMs ?? 0))}))`)
        .join(', ');
      // the rows inserted are those with seq above a value taken first (one transaction writes at a time)
      const [{ since }] = await rows(conn, `SELECT nextval('raw_seq') AS since`);
      await conn.run(
        `INSERT INTO access_log SELECT nextval('raw_seq'), b.node_id, ${ROW}
         FROM (SELECT *, try_cast("time" AS TIMESTAMPTZ) AS ts FROM ${readLines(loading.map((k) => k.path))}) l
         JOIN (VALUES ${values}) b(file, node_id, after, served, shift) ON l.filename = b.file
         WHERE list_contains(b.served, "siteId") AND l.ts IS NOT NULL AND l.ts + b.shift < now() + INTERVAL 1 DAY AND "domain" IS NOT NULL AND "clientIp" IS NOT NULL
           AND "status" IS NOT NULL AND "bytesSent" >= 0 AND "bytesReceived" >= 0 AND (b.after IS NULL OR "offset" > b.after)`,
      );
      const byNode = new Map(loading.map((k) => [k.batch.nodeId, loaded[k.no]]));
      const stored = await rows(conn, `SELECT node_id, site_id, count(*) AS n FROM access_log WHERE seq > $1 GROUP BY ALL ORDER BY ALL`, [num(since)]);
      for (const r of stored) {
        const out = byNode.get(num(r.node_id))!;
        out.stored += num(r.n);
        out.siteIds.push(num(r.site_id));
      }
    }
    const moved = [...cursors].map(([key, offset]) => [...(JSON.parse(key) as [number, string]), offset] as const);
    if (moved.length) {
      await conn.run(
        `INSERT INTO log_cursors SELECT * FROM (VALUES ${moved.map(([node, file, offset]) => `(${Number(node)}, ${quote(file)}, ${Number(offset)}, now()::TIMESTAMP)`).join(', ')})
         ON CONFLICT DO UPDATE SET "offset" = greatest("offset", excluded."offset"), updated_at = excluded.updated_at`,
      );
    }
    const fresh = loading.filter((k) => k.digest !== undefined);
    if (fresh.length) await conn.run(`INSERT INTO batches VALUES ${fresh.map((k) => `(${Number(k.batch.nodeId)}, '${k.digest}', 0, now()::TIMESTAMP)`).join(', ')}`);
    await conn.run('COMMIT');
    for (const [key, offset] of cursors) committed.set(key, offset);
    return loaded;
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  } finally {
    await Promise.all(known.map((k) => fs.rm(k.path, { force: true })));
  }
};
