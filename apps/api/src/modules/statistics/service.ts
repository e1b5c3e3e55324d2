import type { statisticsSchemas } from '@edgekeep/contract';
import type { Counts, Dimension, Point, Row, Scope } from '../../analytics/types';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { csvLine } from '../../lib/csv';
import { siteNames } from '../sites/repo';
import { nodeNames } from '../zones/repo';
import { resolveScope } from './scope';
import { windowOf, type Window } from './window';

type Filter = statisticsSchemas.StatisticsFilter;
type CountsType = Filter['countsType'];
type ListSort = (typeof statisticsSchemas.LIST_SORTS)[number];
type ListQuery = { page?: number; pageSize?: number; sortBy?: ListSort; orderBy?: string };

const FIXED_TOPS: Dimension[] = ['domain', 'status', 'url', 'refererHost', 'clientIp', 'isp', 'uaFamily', 'protocol', 'httpVersion', 'method', 'cacheStatus'];
const AREA_TOPS: Record<Filter['area'], Dimension[]> = { country: ['country'], city: ['region', 'city'] };
const EXPORT_PAGE = 1000;

export async function statisticsInfo(deps: AppDeps, principal: Principal, f: Filter) {
  const { scope, window } = await resolveScope(deps, principal, f);
  const c = await deps.analytics.cards(scope);
  return {
    window: windowOf(window),
    cards: {
      totalTraffics: c.traffic,
      chinaTraffics: c.chinaTraffic,
      nonChinaTraffics: c.traffic - c.chinaTraffic,
      totalCache: c.cacheTraffic,
      reqCount: c.requests,
      chinaReq: c.chinaRequests,
      nonChinaReq: c.requests - c.chinaRequests,
      respCount: c.responses,
      cacheHits: c.cacheHits,
      upstreamCount: c.upstreamRequests,
      trafficReceived: c.trafficReceived,
      blocked: c.blocked,
      chinaCount: c.chinaBlocked,
      nonChinaCount: c.blocked - c.chinaBlocked,
      peakBandwidth: c.peakBandwidth,
      peakQps: c.peakQps,
    },
    statusCodes: c.breakdown.status,
    methods: c.breakdown.method,
    httpVersions: c.breakdown.httpVersion,
    ipProtocols: c.breakdown.ipVersion,
    protocols: c.breakdown.protocol,
    blockCauses: c.breakdown.blockCause,
  };
}

const toPoint = (p: Point, seconds: number) => ({
  time: p.time.toISOString(),
  reqCount: p.requests,
  respCount: p.responses,
  traffic: p.traffic,
  cacheHits: p.cacheHits,
  cacheTraffic: p.cacheTraffic,
  upstreamCount: p.upstreamRequests,
  blocked: p.blocked,
  bandwidth: (p.traffic * 8) / seconds,
  qps: p.requests / seconds,
  status2xx: p.status2xx,
  status3xx: p.status3xx,
  status4xx: p.status4xx,
  status5xx: p.status5xx,
});

export async function timeSeries(deps: AppDeps, principal: Principal, f: Filter, page: { page: number; pageSize: number }) {
  const { scope, window } = await resolveScope(deps, principal, f);
  const { points, total } = await deps.analytics.series(scope, { offset: (page.page - 1) * page.pageSize, limit: page.pageSize });
  const bucketEnd = (i: number) => points[i + 1]?.time.getTime() ?? Math.min(points[i].time.getTime() + window.intervalMinutes * 60_000, window.to.getTime());
  return { window: windowOf(window), data: points.map((p, i) => toPoint(p, (bucketEnd(i) - p.time.getTime()) / 1000)), total };
}

const totals = (c: Counts) => ({ reqCount: c.requests, traffic: c.traffic, cacheHits: c.cacheHits, cacheTraffic: c.cacheTraffic, blocked: c.blocked });
const countOf = (c: Counts, by: CountsType) => (by === 'traffic' ? c.traffic : c.requests);

/** Names for the keys of the dimensions whose values are ids. */
async function labeller(deps: AppDeps, dimension: Dimension, rows: Row[]) {
  const ids = rows.map((r) => Number(r.key)).filter((n) => Number.isInteger(n) && n > 0);
  const read = dimension === 'site' ? siteNames : dimension === 'node' ? nodeNames : undefined;
  if (!read || !ids.length) return (key: string) => key;
  const names = new Map((await read(deps.db, ids)).map((r) => [String(r.id), r.name]));
  return (key: string) => names.get(key) ?? key;
}

async function toRows(deps: AppDeps, o: { dimension: Dimension; rows: Row[]; total: Counts; by: CountsType }) {
  const label = await labeller(deps, o.dimension, o.rows);
  const whole = countOf(o.total, o.by);
  return o.rows.map((r) => ({ key: r.key, label: label(r.key), ...totals(r), share: whole ? Math.round((countOf(r, o.by) * 100) / whole) : 0 }));
}

export async function statisticsTop(deps: AppDeps, principal: Principal, body: statisticsSchemas.TopBody) {
  const { scope, window } = await resolveScope(deps, principal, body);
  const dimensions = body.dimensions ?? [...FIXED_TOPS, ...AREA_TOPS[body.area]];
  const tops = [];
  for (const dimension of dimensions) {
    const { rows, total } = await deps.analytics.top(scope, { dimension, limit: body.top, by: body.countsType });
    tops.push({ dimension, items: await toRows(deps, { dimension, rows, total, by: body.countsType }), total: totals(total) });
  }
  return { window: windowOf(window), tops };
}

const SORT_KEYS: Record<ListSort, keyof Counts | 'key'> = { reqCount: 'requests', traffic: 'traffic', cacheHits: 'cacheHits', cacheTraffic: 'cacheTraffic', blocked: 'blocked', key: 'key' };

async function groupPage(deps: AppDeps, o: { scope: Scope; body: statisticsSchemas.ListBody; query: ListQuery; limit: number; offset: number }) {
  const { scope, body, query } = o;
  const sortBy = SORT_KEYS[query.sortBy ?? (body.countsType === 'traffic' ? 'traffic' : 'reqCount')];
  const order = query.orderBy?.startsWith('asc') ? 'asc' : 'desc';
  return deps.analytics.group(scope, { dimension: body.groupBy, sortBy, order, limit: o.limit, offset: o.offset });
}

/** The whole of the window (every value of the dimension), for shares. */
const wholeOf = async (deps: AppDeps, scope: Scope, o: { dimension: Dimension; by: CountsType }) =>
  (await deps.analytics.top(scope, { dimension: o.dimension, limit: 1, by: o.by })).total;

export async function statisticsList(deps: AppDeps, principal: Principal, body: statisticsSchemas.ListBody, query: ListQuery & { page: number; pageSize: number }) {
  const { scope, window } = await resolveScope(deps, principal, body);
  const { rows, total } = await groupPage(deps, { scope, body, query, limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
  const whole = await wholeOf(deps, scope, { dimension: body.groupBy, by: body.countsType });
  return { window: windowOf(window), data: await toRows(deps, { dimension: body.groupBy, rows, total: whole, by: body.countsType }), total };
}

const CSV_COLUMNS = ['key', 'label', 'reqCount', 'traffic', 'cacheHits', 'cacheTraffic', 'blocked', 'share'] as const;
const windowLine = (w: Window) =>
  `# window ${w.from.toISOString()} to ${w.to.toISOString()}, interval ${w.intervalMinutes} minutes, time zone ${w.timeZone}\n`;

/** Every row of the list call as CSV text: the window and interval in a comment line, a header, the rows. */
export async function statisticsCsv(deps: AppDeps, principal: Principal, body: statisticsSchemas.ListBody, query: ListQuery) {
  const { scope, window } = await resolveScope(deps, principal, body);
  const whole = await wholeOf(deps, scope, { dimension: body.groupBy, by: body.countsType });
  let text = windowLine(window) + csvLine(CSV_COLUMNS);
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const { rows, total } = await groupPage(deps, { scope, body, query, limit: EXPORT_PAGE, offset });
    for (const row of await toRows(deps, { dimension: body.groupBy, rows, total: whole, by: body.countsType })) text += csvLine(CSV_COLUMNS.map((c) => row[c]));
    if (offset + EXPORT_PAGE >= total) return { text, window };
  }
}
