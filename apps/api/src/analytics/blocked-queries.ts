import type { DuckDBConnection } from '@duckdb/node-api';
import { securitySchemas } from '@edgekeep/contract';
import { bucketing } from './queries';
import { resolutionOf, scopeRead } from './scope';
import { num, rows, type Params } from './sql';
import type { RefusalDimension, Scope } from './types';

const { BLOCK_TYPES, OTHER_BLOCK_TYPE } = securitySchemas;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Whether a row's block cause is of a block type (the contract's catalogue). */
const causeOf = (type: number) => {
  const m = BLOCK_TYPES[type as securitySchemas.BlockType];
  if (!m) throw new Error(`not a block type: ${type}`);
  const parts = [
    ...(m.exact.length ? [`block_cause IN (${m.exact.map(literal).join(', ')})`] : []),
    ...m.prefix.map((p) => `starts_with(block_cause, ${literal(p)})`),
  ];
  return `(${parts.join(' OR ')})`;
};

const BLOCK_TYPE = `CASE ${Object.keys(BLOCK_TYPES)
  .map((t) => `WHEN ${causeOf(Number(t))} THEN '${t}'`)
  .join(' ')} ELSE '${OTHER_BLOCK_TYPE}' END`;

const KEYS: Record<RefusalDimension, string> = {
  clientIp: 'client_ip',
  domain: 'domain',
  country: 'country',
  city: 'city',
  blockCause: 'block_cause',
  blockRule: 'block_rule',
  blockType: BLOCK_TYPE,
};

/** The WHERE over the refused lines' rollups: the scope, and the block types asked for (none: every refusal). */
const where = (scope: Scope, types: number[] | undefined, params: Params, resolution?: string) => {
  const read = scopeRead(scope, params);
  const causes = types?.length ? ` AND (${types.map(causeOf).join(' OR ')})` : '';
  return { table: `blocked_${resolution ?? read.resolution}`, where: `${read.where}${causes}` };
};

/** A ranking sums the whole window: hourly rows give the same sums when it falls on whole hours. */
const windowResolution = (scope: Scope) => resolutionOf({ from: scope.from, to: scope.to });

/** Refused requests of the window, their bytes, and how many client addresses they came from. */
export async function refusals(conn: DuckDBConnection, scope: Scope, o: { types?: number[] }) {
  const params: Params = [];
  const { table, where: cond } = where(scope, o.types, params, windowResolution(scope));
  const [r] = await rows(
    conn,
    `SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(bytes_sent), 0) AS traffic, count(DISTINCT client_ip) AS ips FROM ${table} WHERE ${cond}`,
    params,
  );
  return { requests: num(r.requests), traffic: num(r.traffic), sourceIps: num(r.ips) };
}

/** Refused requests by one dimension, most first, with the totals over every value. */
export async function refusalTop(conn: DuckDBConnection, scope: Scope, o: { types?: number[]; by: RefusalDimension; limit: number }) {
  const params: Params = [];
  const { table, where: cond } = where(scope, o.types, params, windowResolution(scope));
  const found = await rows(
    conn,
    `SELECT *, sum(requests) OVER () AS total_requests, sum(traffic) OVER () AS total_traffic FROM (
       SELECT ${KEYS[o.by]} AS key, sum(requests) AS requests, sum(bytes_sent) AS traffic FROM ${table} WHERE ${cond} GROUP BY key)
     ORDER BY requests DESC, key ASC LIMIT ${Math.trunc(o.limit)}`,
    params,
  );
  return {
    rows: found.map((r) => ({ key: String(r.key), requests: num(r.requests), traffic: num(r.traffic) })),
    total: { requests: num(found[0]?.total_requests), traffic: num(found[0]?.total_traffic) },
  };
}

/** Refused requests per bucket of the window, empty buckets as zeros. */
export async function refusalSeries(conn: DuckDBConnection, scope: Scope, o: { types?: number[] }) {
  const params: Params = [];
  const { table, where: cond } = where(scope, o.types, params);
  const { key, buckets } = bucketing(scope, params);
  const found = await rows(
    conn,
    `WITH buckets AS (${buckets()}), agg AS (SELECT ${key} AS key, sum(requests) AS requests FROM ${table} WHERE ${cond} GROUP BY key)
     SELECT epoch_ms(b.key) AS at, coalesce(agg.requests, 0) AS requests FROM buckets b LEFT JOIN agg USING (key) ORDER BY b.key`,
    params,
  );
  return found.map((r) => ({ time: new Date(num(r.at)), requests: num(r.requests) }));
}
