import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { agentProtocol } from '@edgekeep/contract';

/** Raw access rows are kept this long, then pruned; the 5-minute rollups stay. */
export const RAW_RETENTION_DAYS = 7;
const ROWS_PER_INSERT = 250;
const PRUNE_EVERY_MS = 10 * 60_000;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS access_log (
     batch_id BIGINT NOT NULL, node_id INTEGER NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL, time TIMESTAMP NOT NULL,
     client_ip VARCHAR, country VARCHAR, asn VARCHAR, method VARCHAR, uri VARCHAR, status INTEGER, bytes_sent BIGINT, bytes_received BIGINT,
     request_time DOUBLE, upstream_time DOUBLE, cache_status VARCHAR, http_version VARCHAR, referer VARCHAR, user_agent VARCHAR, block_cause VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS rollup_5m (
     bucket TIMESTAMP NOT NULL, site_id INTEGER NOT NULL, domain VARCHAR NOT NULL,
     requests BIGINT NOT NULL, bytes_sent BIGINT NOT NULL, bytes_received BIGINT NOT NULL, cache_hits BIGINT NOT NULL, cache_bytes BIGINT NOT NULL,
     status_2xx BIGINT NOT NULL, status_3xx BIGINT NOT NULL, status_4xx BIGINT NOT NULL, status_5xx BIGINT NOT NULL, status_other BIGINT NOT NULL,
     PRIMARY KEY (bucket, site_id, domain))`,
  `CREATE TABLE IF NOT EXISTS batches (node_id INTEGER NOT NULL, digest VARCHAR NOT NULL, id BIGINT NOT NULL, received_at TIMESTAMP NOT NULL, PRIMARY KEY (node_id, digest))`,
  `CREATE SEQUENCE IF NOT EXISTS batch_ids`,
];

export type StoredLine = agentProtocol.AccessLogLine & { siteId: number };
export type Totals = { siteId: number; bytesSent: number; bytesReceived: number; requests: number; cacheHits: number; cacheBytes: number };

const COLUMNS = 20;
const rowParams = (batchId: number, nodeId: number, l: StoredLine) => [
  batchId, nodeId, l.siteId, l.domain, l.time.replace(/Z$/, ''), l.clientIp, l.country, l.asn, l.method, l.uri, l.status, l.bytesSent,
  l.bytesReceived, l.requestTime, l.upstreamTime, l.cacheStatus, l.httpVersion, l.referer, l.userAgent, l.blockCause,
];
const placeholders = (rows: number) =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`).join(', ');

/** A cache answer that came from the edge's cache (nginx `$upstream_cache_status`). */
const CACHE_HIT = `cache_status IN ('HIT', 'STALE', 'UPDATING', 'REVALIDATED')`;

/**
 * The analytics store: one DuckDB file `DATA_DIR/analytics.duckdb` holding the nodes' access rows (for a week)
 * and 5-minute rollups per site and domain. Opened on first use; one connection, writes queued one at a time.
 */
export function createAnalyticsStore({ dataDir }: { dataDir: string }) {
  let opening: Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let lastPrune = 0;

  const open = () =>
    (opening ??= (async () => {
      const instance = await DuckDBInstance.create(path.join(dataDir, 'analytics.duckdb'));
      const conn = await instance.connect();
      for (const stmt of SCHEMA) await conn.run(stmt);
      return { instance, conn };
    })());

  /** Runs one unit of work alone on the connection. */
  const serial = <T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const next = queue.then(async () => work((await open()).conn));
    queue = next.catch(() => undefined);
    return next;
  };

  const rows = async (conn: DuckDBConnection, sql: string, params: (string | number | null)[] = []) =>
    (await conn.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[];

  const prune = async (conn: DuckDBConnection) => {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    const cutoff = new Date(Date.now() - RAW_RETENTION_DAYS * 86_400_000).toISOString().replace(/Z$/, '');
    await conn.run('DELETE FROM access_log WHERE time < $1::TIMESTAMP', [cutoff]);
    await conn.run('DELETE FROM batches WHERE received_at < $1::TIMESTAMP', [cutoff]);
  };

  return {
    /**
     * Stores one node's batch and adds it to the rollups, in one transaction. A batch already stored (the same
     * node, the same content: an agent retrying after a lost answer) is not counted twice. Answers whether it
     * was new.
     */
    ingest: ({ nodeId, digest, lines }: { nodeId: number; digest: string; lines: StoredLine[] }) =>
      serial(async (conn) => {
        await prune(conn);
        const seen = await rows(conn, 'SELECT id FROM batches WHERE node_id = $1 AND digest = $2', [nodeId, digest]);
        if (seen.length) return false;
        await conn.run('BEGIN TRANSACTION');
        try {
          const [{ id }] = await rows(conn, `SELECT nextval('batch_ids') AS id`);
          const batchId = Number(id);
          await conn.run('INSERT INTO batches VALUES ($1, $2, $3, now()::TIMESTAMP)', [nodeId, digest, batchId]);
          for (let i = 0; i < lines.length; i += ROWS_PER_INSERT) {
            const chunk = lines.slice(i, i + ROWS_PER_INSERT);
            await conn.run(`INSERT INTO access_log VALUES ${placeholders(chunk.length)}`, chunk.flatMap((l) => rowParams(batchId, nodeId, l)));
          }
          await conn.run(
            `INSERT INTO rollup_5m
             SELECT time_bucket(INTERVAL 5 MINUTE, time) AS bucket, site_id, domain, count(*), sum(bytes_sent), sum(bytes_received),
                    count(*) FILTER (WHERE ${CACHE_HIT}), coalesce(sum(bytes_sent) FILTER (WHERE ${CACHE_HIT}), 0),
                    count(*) FILTER (WHERE status BETWEEN 200 AND 299), count(*) FILTER (WHERE status BETWEEN 300 AND 399),
                    count(*) FILTER (WHERE status BETWEEN 400 AND 499), count(*) FILTER (WHERE status BETWEEN 500 AND 599),
                    count(*) FILTER (WHERE status < 200 OR status > 599)
             FROM access_log WHERE batch_id = $1 GROUP BY ALL
             ON CONFLICT DO UPDATE SET
               requests = requests + excluded.requests, bytes_sent = bytes_sent + excluded.bytes_sent,
               bytes_received = bytes_received + excluded.bytes_received, cache_hits = cache_hits + excluded.cache_hits,
               cache_bytes = cache_bytes + excluded.cache_bytes, status_2xx = status_2xx + excluded.status_2xx,
               status_3xx = status_3xx + excluded.status_3xx, status_4xx = status_4xx + excluded.status_4xx,
               status_5xx = status_5xx + excluded.status_5xx, status_other = status_other + excluded.status_other`,
            [batchId],
          );
          await conn.run('COMMIT');
          return true;
        } catch (err) {
          await conn.run('ROLLBACK');
          throw err;
        }
      }),

    /** Per-site totals of the rollups in [from, to); only sites with traffic appear. */
    totalsBySite: ({ from, to, siteIds }: { from: Date; to: Date; siteIds?: number[] }) =>
      serial(async (conn): Promise<Totals[]> => {
        if (siteIds && !siteIds.length) return [];
        const only = siteIds ? `AND site_id IN (${siteIds.map((id) => Number(id)).join(', ')})` : '';
        const found = await rows(
          conn,
          `SELECT site_id, sum(bytes_sent) AS sent, sum(bytes_received) AS received, sum(requests) AS requests, sum(cache_hits) AS hits, sum(cache_bytes) AS cache
           FROM rollup_5m WHERE bucket >= $1::TIMESTAMP AND bucket < $2::TIMESTAMP ${only} GROUP BY site_id ORDER BY site_id`,
          [from.toISOString().replace(/Z$/, ''), to.toISOString().replace(/Z$/, '')],
        );
        return found.map((r) => ({
          siteId: Number(r.site_id),
          bytesSent: Number(r.sent),
          bytesReceived: Number(r.received),
          requests: Number(r.requests),
          cacheHits: Number(r.hits),
          cacheBytes: Number(r.cache),
        }));
      }),

    /**
     * Domains of the given sites ranked by bytes sent ('traffic') or requests in [from, to), one page of them
     * sorted and cut in the query, with the number of domains that had traffic.
     */
    domainRanks: ({ from, to, siteIds, sortBy, order, limit, offset }: { from: Date; to: Date; siteIds: number[]; sortBy: 'traffic' | 'reqCount'; order: 'asc' | 'desc'; limit: number; offset: number }) =>
      serial(async (conn) => {
        if (!siteIds.length) return { rows: [] as { siteId: number; domain: string; traffic: number; requests: number }[], total: 0 };
        const only = siteIds.map((id) => Number(id)).join(', ');
        const window = [from.toISOString().replace(/Z$/, ''), to.toISOString().replace(/Z$/, '')];
        const where = `bucket >= $1::TIMESTAMP AND bucket < $2::TIMESTAMP AND site_id IN (${only})`;
        const column = sortBy === 'reqCount' ? 'requests' : 'traffic';
        const dir = order === 'asc' ? 'ASC' : 'DESC';
        const found = await rows(
          conn,
          `SELECT site_id, domain, sum(bytes_sent) AS traffic, sum(requests) AS requests FROM rollup_5m WHERE ${where}
           GROUP BY site_id, domain ORDER BY ${column} ${dir}, domain ASC, site_id ASC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
          window,
        );
        const [{ n }] = await rows(conn, `SELECT count(*) AS n FROM (SELECT DISTINCT site_id, domain FROM rollup_5m WHERE ${where})`, window);
        return {
          rows: found.map((r) => ({ siteId: Number(r.site_id), domain: String(r.domain), traffic: Number(r.traffic), requests: Number(r.requests) })),
          total: Number(n),
        };
      }),

    /** How many raw rows the store holds for a site (for checks and tests of retention). */
    rawCount: ({ siteId }: { siteId: number }) =>
      serial(async (conn) => Number((await rows(conn, 'SELECT count(*) AS n FROM access_log WHERE site_id = $1', [siteId]))[0].n)),

    async close() {
      if (!opening) return;
      const { instance, conn } = await opening.catch(() => ({ instance: undefined, conn: undefined }));
      await queue;
      conn?.closeSync();
      instance?.closeSync();
      opening = undefined;
    },
  };
}

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>;
