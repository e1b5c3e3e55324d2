import { statisticsSchemas } from '@edgekeep/contract';
import type { Resolution } from './tables';
import { binder, idList, stamp, type Params } from './sql';
import type { Outcomes, Scope } from './types';

const HOUR_MS = 3_600_000;

/**
 * The rollups a window reads: 5-minute ones while they are kept and the buckets asked for are shorter than an hour
 * (or the window does not fall on whole hours), hourly ones otherwise.
 */
export const resolutionOf = ({ from, to, intervalMinutes }: { from: Date; to: Date; intervalMinutes?: number }): Resolution => {
  const kept = from.getTime() >= Date.now() - statisticsSchemas.FIVE_MINUTE_ROLLUP_DAYS * 86_400_000;
  const wholeHours = from.getTime() % HOUR_MS === 0 && to.getTime() % HOUR_MS === 0;
  return kept && ((intervalMinutes !== undefined && intervalMinutes < 60) || !wholeHours) ? '5m' : '1h';
};

/** The WHERE of a rollup read: the window, the sites (validated integers) and the domains (bound). */
export const rollupWhere = (o: { from: Date; to: Date; siteIds?: number[]; domains?: string[] }, params: Params) => {
  const bind = binder(params);
  const parts = [`bucket >= ${bind(stamp(o.from))}::TIMESTAMP`, `bucket < ${bind(stamp(o.to))}::TIMESTAMP`];
  if (o.siteIds) parts.push(o.siteIds.length ? `site_id IN (${idList(o.siteIds)})` : 'false');
  if (o.domains?.length) parts.push(`domain IN (${o.domains.map((d) => bind(d)).join(', ')})`);
  return parts.join(' AND ');
};

/**
 * What a counter sums to under an outcome: 'blocked' counts the blocked requests and their bytes only (a blocked
 * request is never a cache hit nor sent upstream); 'allowed' counts the rest.
 */
export const OUTCOME_SUMS: Record<Outcomes, Record<'requests' | 'traffic' | 'cacheHits' | 'cacheTraffic' | 'blocked', string>> = {
  all: { requests: 'requests', traffic: 'bytes_sent', cacheHits: 'cache_hits', cacheTraffic: 'cache_bytes', blocked: 'blocked' },
  allowed: { requests: 'requests - blocked', traffic: 'bytes_sent - blocked_bytes', cacheHits: 'cache_hits', cacheTraffic: 'cache_bytes', blocked: '0' },
  blocked: { requests: 'blocked', traffic: 'blocked_bytes', cacheHits: '0', cacheTraffic: '0', blocked: 'blocked' },
};

/** The Counts of a row (a top or group row) as SQL sums under the scope's outcome. */
export const countSums = (outcomes: Outcomes) =>
  Object.entries(OUTCOME_SUMS[outcomes]).map(([name, expr]) => `coalesce(sum(${expr}), 0) AS "${name}"`).join(', ');

/** A Scope's rollup read: the resolution and the WHERE. */
export const scopeRead = (scope: Scope, params: Params) => ({
  resolution: resolutionOf(scope),
  where: rollupWhere({ from: scope.from, to: scope.to, siteIds: scope.siteIds, domains: scope.domains }, params),
});
