import type { DuckDBConnection } from '@duckdb/node-api';
import { scanLines, type BatchId, type Spooled } from './spool';
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

/** Lines in a batch (the empty ones aside). */
export const countLines = (ndjson: Buffer) => scanLines(ndjson).lines;

/** A batch's last line (its bytes), parsed; undefined when it is not a JSON object. */
const parseLine = (line: Buffer | undefined) => {
  if (!line) return undefined;
  try {
    const parsed: unknown = JSON.parse(line.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as { offset?: unknown; time?: unknown }) : undefined;
  } catch {
    return undefined;
  }
};

/** The offset of a batch's last line (lines come in file order, so it is the highest). */
const offsetOf = (line: Buffer | undefined) => {
  const offset = parseLine(line)?.offset;
  return typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
};

/** The offset of the batch's last line. */
export const lastOffset = (ndjson: Buffer) => offsetOf(scanLines(ndjson).last);

/** The time of a batch's last line, its newest, in epoch milliseconds. */
export const timeOf = (line: Buffer | undefined) => {
  const time = parseLine(line)?.time;
  const ms = typeof time === 'string' ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** The time of the batch's last line, its newest, in epoch milliseconds. */
export const lastTime = (ndjson: Buffer) => timeOf(scanLines(ndjson).last);

/** A (node, log file) pair, or a (node, digest) one, as a key. */
const keyOf = (nodeId: number, file: string) => JSON.stringify([nodeId, file]);

/**
 * How a node's batch is known to have been stored: by `file` and its last line's offset, else by `digest`, the hash
 * of its lines as they arrived.
 */
export const identify = async ({ last, file, digest }: { last?: Buffer; file?: string; digest: () => Promise<string> }): Promise<BatchId> => {
  const offset = file ? offsetOf(last) : undefined;
  if (file !== undefined && offset !== undefined) return { cursor: { file, offset } };
  return { digest: await digest() };
};

/**
 * Bulk-loads spooled batches, in arrival order (several of one node among them), in one transaction (group commit):
 * DuckDB reads their files at once (read_json over the list) and keeps the valid lines of each batch's served sites
 * past its file's cursor, in the transaction that moves the cursors (or records the digests of batches whose lines
 * carry no offsets). Answers how many lines were stored. `known` holds the cursors committed so far by this writer
 * (the only one): only the others are read.
 */
export const loadBatches = async (conn: DuckDBConnection, { batches, known: committed }: { batches: Spooled[]; known: Map<string, number> }): Promise<number> => {
  await conn.run('BEGIN TRANSACTION');
  try {
    const cursors = new Map<string, number>();
    const files = [...new Set(batches.flatMap((b) => ('cursor' in b ? [keyOf(b.nodeId, b.cursor.file)] : [])))];
    for (const key of files) if (committed.has(key)) cursors.set(key, committed.get(key)!);
    const unread = files.filter((key) => !committed.has(key));
    if (unread.length) {
      const pairs = unread.map((key) => JSON.parse(key) as [number, string]).map(([node, file]) => `(${Number(node)}, ${quote(file)})`).join(', ');
      for (const r of await rows(conn, `SELECT node_id, file, "offset" FROM log_cursors WHERE (node_id, file) IN (${pairs})`)) {
        cursors.set(keyOf(num(r.node_id), String(r.file)), num(r.offset));
      }
    }
    const digests = new Set<string>();
    const withDigest = batches.flatMap((b) => ('digest' in b ? [{ nodeId: b.nodeId, digest: b.digest }] : []));
    if (withDigest.length) {
      const pairs = withDigest.map((b) => `(${Number(b.nodeId)}, '${b.digest}')`).join(', ');
      for (const r of await rows(conn, `SELECT node_id, digest FROM batches WHERE (node_id, digest) IN (${pairs})`)) digests.add(keyOf(num(r.node_id), String(r.digest)));
    }
    /** Each batch's lines past this offset are new (null: no offsets, the whole batch is new); undefined: skipped. */
    const afters = batches.map((b) => {
      if ('digest' in b) {
        const key = keyOf(b.nodeId, b.digest);
        if (digests.has(key)) return undefined;
        digests.add(key);
        return null;
      }
      const key = keyOf(b.nodeId, b.cursor.file);
      const after = cursors.get(key) ?? -1;
      cursors.set(key, Math.max(after, b.cursor.offset));
      return after;
    });
    const loading = batches.map((b, i) => ({ b, after: afters[i] })).filter((k) => k.after !== undefined);
    let stored = 0;
    if (loading.length) {
      const values = loading
        .map(({ b, after }) => `(${quote(b.path)}, ${Number(b.nodeId)}, ${after ?? 'NULL'}, [${b.served.length ? idList(b.served) : ''}]::INTEGER[], to_milliseconds(${Math.trunc(Number(b.shiftMs))}))`)
        .join(', ');
      const inserted = await rows(
        conn,
        `INSERT INTO access_log SELECT nextval('raw_seq'), b.node_id, ${ROW}
         FROM (SELECT *, try_cast("time" AS TIMESTAMPTZ) AS ts FROM ${readLines(loading.map((k) => k.b.path))}) l
         JOIN (VALUES ${values}) b(file, node_id, after, served, shift) ON l.filename = b.file
         WHERE list_contains(b.served, "siteId") AND l.ts IS NOT NULL AND l.ts + b.shift < now() + INTERVAL 1 DAY AND "domain" IS NOT NULL AND "clientIp" IS NOT NULL
           AND "status" IS NOT NULL AND "bytesSent" >= 0 AND "bytesReceived" >= 0 AND (b.after IS NULL OR "offset" > b.after)`,
      );
      stored = num(inserted[0]?.Count);
    }
    const moved = [...cursors].map(([key, offset]) => [...(JSON.parse(key) as [number, string]), offset] as const);
    if (moved.length) {
      await conn.run(
        `INSERT INTO log_cursors SELECT * FROM (VALUES ${moved.map(([node, file, offset]) => `(${Number(node)}, ${quote(file)}, ${Number(offset)}, now()::TIMESTAMP)`).join(', ')})
         ON CONFLICT DO UPDATE SET "offset" = greatest("offset", excluded."offset"), updated_at = excluded.updated_at`,
      );
    }
    const fresh = loading.flatMap(({ b }) => ('digest' in b ? [`(${Number(b.nodeId)}, '${b.digest}', 0, now()::TIMESTAMP)`] : []));
    if (fresh.length) await conn.run(`INSERT INTO batches VALUES ${fresh.join(', ')}`);
    await conn.run('COMMIT');
    for (const [key, offset] of cursors) committed.set(key, offset);
    return stored;
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
};
