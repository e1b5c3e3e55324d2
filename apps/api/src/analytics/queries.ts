import type { DuckDBConnection } from '@duckdb/node-api';
import { OUTCOME_SUMS, scopeRead } from './scope';
import { binder, num, rows, stamp, type Params } from './sql';
import type { Cards, Outcomes, Point, Scope } from './types';

/** Each number of a card or a point as a sum over the base rollups under the scope's outcome. */
const baseSums = (outcomes: Outcomes) => {
  const o = OUTCOME_SUMS[outcomes];
  const pick = (all: string, allowed: string, blocked: string) => ({ all, allowed, blocked })[outcomes];
  return {
    requests: o.requests,
    responses: pick('responses', 'responses - blocked_responses', 'blocked_responses'),
    traffic: o.traffic,
    trafficReceived: 'bytes_received',
    cacheHits: o.cacheHits,
    cacheTraffic: o.cacheTraffic,
    upstreamRequests: pick('upstream_requests', 'upstream_requests', '0'),
    chinaRequests: pick('china_requests', 'china_requests - china_blocked', 'china_blocked'),
    chinaTraffic: pick('china_bytes', 'china_bytes - china_blocked_bytes', 'china_blocked_bytes'),
    blocked: o.blocked,
    chinaBlocked: pick('china_blocked', '0', 'china_blocked'),
    status2xx: 'status_2xx',
    status3xx: 'status_3xx',
    status4xx: 'status_4xx',
    status5xx: 'status_5xx',
  };
};
const select = (sums: Record<string, string>) => Object.entries(sums).map(([name, expr]) => `coalesce(sum(${expr}), 0) AS "${name}"`).join(', ');

/** A zone name DuckDB and Intl both know, else UTC. */
const zoneOf = (timeZone: string | undefined) => {
  if (!timeZone) return 'UTC';
  new Intl.DateTimeFormat('en', { timeZone });
  return timeZone;
};

/**
 * The bucket a rollup row falls in, as TIMESTAMPTZ, and the dense list of buckets of the window: steps of the interval
 * from the window's start, or days from midnight in the scope's zone.
 */
export const bucketing = (scope: Pick<Scope, 'from' | 'to' | 'intervalMinutes' | 'timeZone'>, params: Params) => {
  const bind = binder(params);
  const from = () => `${bind(stamp(scope.from))}::TIMESTAMP`;
  const to = () => `${bind(stamp(scope.to))}::TIMESTAMP`;
  if (scope.intervalMinutes === 1440) {
    const tz = bind(zoneOf(scope.timeZone));
    const local = (t: string) => `timezone(${tz}, timezone('UTC', ${t}))`;
    return {
      key: `timezone(${tz}, date_trunc('day', ${local('bucket')}))`,
      buckets: () => `SELECT timezone(${tz}, d) AS key FROM range(date_trunc('day', ${local(from())}), ${local(to())}, INTERVAL 1 DAY) t(d)`,
    };
  }
  const n = Math.trunc(scope.intervalMinutes);
  if (!(n > 0)) throw new Error(`bad interval: ${scope.intervalMinutes}`);
  const start = from();
  return {
    key: `timezone('UTC', ${start} + to_minutes((date_diff('minute', ${start}, bucket) // ${n}) * ${n}))`,
    buckets: () => `SELECT timezone('UTC', d) AS key FROM range(${start}, ${to()}, INTERVAL ${n} MINUTE) t(d)`,
  };
};

const POINT_FIELDS = ['requests', 'responses', 'traffic', 'cacheHits', 'cacheTraffic', 'upstreamRequests', 'blocked', 'status2xx', 'status3xx', 'status4xx', 'status5xx'] as const;
const BREAKDOWN = { status: 'status', method: 'method', httpVersion: 'httpVersion', ipVersion: 'ipVersion', protocol: 'protocol', blockCause: 'blockCause' } as const;

export async function cards(conn: DuckDBConnection, scope: Scope): Promise<Cards> {
  const sums = baseSums(scope.outcomes);
  const totalParams: Params = [];
  const read = scopeRead(scope, totalParams);
  const [totals] = await rows(conn, `SELECT ${select(sums)} FROM base_${read.resolution} WHERE ${read.where}`, totalParams);
  const params: Params = [];
  const { resolution, where } = scopeRead(scope, params);
  const { key } = bucketing(scope, params);
  const [peak] = await rows(
    conn,
    `SELECT coalesce(max(traffic), 0) AS traffic, coalesce(max(requests), 0) AS requests FROM (
       SELECT ${key} AS key, sum(${sums.traffic}) AS traffic, sum(${sums.requests}) AS requests FROM base_${resolution} WHERE ${where} GROUP BY key)`,
    params,
  );
  const dimParams: Params = [];
  const dims = scopeRead(scope, dimParams);
  const found = await rows(
    conn,
    `SELECT dim, value, sum(${OUTCOME_SUMS[scope.outcomes].requests}) AS n FROM dim_${dims.resolution}
     WHERE ${dims.where} AND dim IN (${Object.keys(BREAKDOWN).map((d) => `'${d}'`).join(', ')}) GROUP BY dim, value HAVING n > 0`,
    dimParams,
  );
  const breakdown = Object.fromEntries(Object.keys(BREAKDOWN).map((d) => [d, {} as Record<string, number>])) as Cards['breakdown'];
  for (const r of found) breakdown[r.dim as keyof typeof BREAKDOWN][String(r.value)] = num(r.n);
  const seconds = (scope.intervalMinutes || 5) * 60;
  const n = (name: keyof typeof sums) => num(totals[name]);
  return {
    requests: n('requests'),
    responses: n('responses'),
    traffic: n('traffic'),
    trafficReceived: n('trafficReceived'),
    cacheHits: n('cacheHits'),
    cacheTraffic: n('cacheTraffic'),
    upstreamRequests: n('upstreamRequests'),
    chinaRequests: n('chinaRequests'),
    chinaTraffic: n('chinaTraffic'),
    blocked: n('blocked'),
    chinaBlocked: n('chinaBlocked'),
    peakBandwidth: (num(peak.traffic) * 8) / seconds,
    peakQps: num(peak.requests) / seconds,
    breakdown,
  };
}

export async function series(conn: DuckDBConnection, scope: Scope, page: { offset: number; limit: number }) {
  const params: Params = [];
  const { resolution, where } = scopeRead(scope, params);
  const { key, buckets } = bucketing(scope, params);
  const all = baseSums(scope.outcomes);
  const sums = Object.fromEntries(POINT_FIELDS.map((name) => [name, all[name]]));
  const found = await rows(
    conn,
    `WITH buckets AS (${buckets()}),
          agg AS (SELECT ${key} AS key, ${select(sums)} FROM base_${resolution} WHERE ${where} GROUP BY key)
     SELECT epoch_ms(b.key) AS at, count(*) OVER () AS total, agg.* EXCLUDE (key) FROM buckets b LEFT JOIN agg USING (key)
     ORDER BY b.key LIMIT ${Math.trunc(page.limit)} OFFSET ${Math.trunc(page.offset)}`,
    params,
  );
  const points: Point[] = found.map((r) => ({
    time: new Date(num(r.at)),
    ...(Object.fromEntries(POINT_FIELDS.map((name) => [name, num(r[name])])) as Omit<Point, 'time'>),
  }));
  if (found.length) return { points, total: num(found[0].total) };
  const countParams: Params = [];
  const [{ total }] = await rows(conn, `SELECT count(*) AS total FROM (${bucketing(scope, countParams).buckets()})`, countParams);
  return { points, total: num(total) };
}
