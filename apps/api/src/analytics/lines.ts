import type { DuckDBConnection } from '@duckdb/node-api';
import { binder, idList, num, rows, stamp, type Params } from './sql';
import type { LineFilter, RawLine } from './types';

const COLUMNS = `epoch_us(time) AS at_us, seq, node_id, site_id, domain, request_id, client_ip, country, region, city, isp, asn, scheme, method, uri, status,
  bytes_sent, bytes_received, request_time, upstream_time, cache_status, http_version, referer, user_agent, block_cause, block_rule, block_action`;

const where = (f: LineFilter, params: Params) => {
  const bind = binder(params);
  const parts = [
    `time >= ${bind(stamp(f.from))}::TIMESTAMP`,
    `time < ${bind(stamp(f.to))}::TIMESTAMP`,
    f.siteIds.length ? `site_id IN (${idList(f.siteIds)})` : 'false',
  ];
  if (f.domains?.length) parts.push(`domain IN (${f.domains.map((d) => bind(d)).join(', ')})`);
  if (f.clientIp) parts.push(`client_ip = ${bind(f.clientIp)}`);
  if (f.cacheStatus) parts.push(`cache_status = ${bind(f.cacheStatus)}`);
  if (f.uri) parts.push(`contains(uri, ${bind(f.uri)})`);
  if (f.status !== undefined) parts.push(`status = ${bind(Math.trunc(f.status))}`);
  if (f.blockedOnly) parts.push(`block_cause <> ''`);
  return parts.join(' AND ');
};

const lineOf = (r: Record<string, unknown>): RawLine => ({
  time: new Date(Math.floor(num(r.at_us) / 1000)),
  nodeId: num(r.node_id),
  siteId: num(r.site_id),
  domain: String(r.domain),
  requestId: String(r.request_id),
  clientIp: String(r.client_ip),
  country: String(r.country),
  region: String(r.region),
  city: String(r.city),
  isp: String(r.isp),
  asn: String(r.asn),
  scheme: String(r.scheme),
  method: String(r.method),
  uri: String(r.uri),
  status: num(r.status),
  bytesSent: num(r.bytes_sent),
  bytesReceived: num(r.bytes_received),
  requestTime: num(r.request_time),
  upstreamTime: r.upstream_time === null ? null : num(r.upstream_time),
  cacheStatus: String(r.cache_status),
  httpVersion: String(r.http_version),
  referer: String(r.referer),
  userAgent: String(r.user_agent),
  blockCause: String(r.block_cause),
  blockRule: String(r.block_rule),
  blockAction: String(r.block_action),
});

export async function countLines(conn: DuckDBConnection, filter: LineFilter) {
  const params: Params = [];
  const [{ n }] = await rows(conn, `SELECT count(*) AS n FROM access_log WHERE ${where(filter, params)}`, params);
  return num(n);
}

/** Raw lines newest first (ties by arrival, newest first), one page. */
export async function lines(conn: DuckDBConnection, filter: LineFilter, page: { offset: number; limit: number }) {
  const params: Params = [];
  const found = await rows(
    conn,
    `SELECT ${COLUMNS} FROM access_log WHERE ${where(filter, params)} ORDER BY time DESC, seq DESC LIMIT ${Math.trunc(page.limit)} OFFSET ${Math.trunc(page.offset)}`,
    params,
  );
  return { rows: found.map(lineOf), total: await countLines(conn, filter) };
}

/** Every matching line newest first, `chunk` at a time: each chunk starts below the last (time, seq) of the one before. */
export async function* streamLines(read: <T>(work: (conn: DuckDBConnection) => Promise<T>) => Promise<T>, filter: LineFilter, o: { chunk: number }) {
  let after: { us: number; seq: number } | undefined;
  for (;;) {
    const params: Params = [];
    const bind = binder(params);
    const cond = where(filter, params);
    const at = after && `make_timestamp(${bind(after.us)}::BIGINT)`;
    const below = after ? `AND (time < ${at} OR (time = ${at} AND seq < ${bind(after.seq)}))` : '';
    const found = await read((conn) =>
      rows(conn, `SELECT ${COLUMNS} FROM access_log WHERE ${cond} ${below} ORDER BY time DESC, seq DESC LIMIT ${Math.trunc(o.chunk)}`, params),
    );
    if (!found.length) return;
    yield found.map(lineOf);
    if (found.length < o.chunk) return;
    const last = found[found.length - 1];
    after = { us: num(last.at_us), seq: num(last.seq) };
  }
}
