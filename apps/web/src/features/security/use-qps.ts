import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { QPS_POLL_MS } from '@edgekeep/contract/constants';
import { statisticsRoutes } from '@edgekeep/contract/routes/statistics';
import { QPS_SERIES } from '@edgekeep/contract/schemas/security';
import type { timeSeriesPoint } from '@edgekeep/contract/schemas/statistics';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { AnalyticsTier } from '../statistics/queries';
import type { SecurityFilter } from './queries';

export type QpsPoint = z.output<typeof timeSeriesPoint>;
type Scope = Omit<SecurityFilter, 'timeInterval' | 'startTime' | 'endTime' | 'reportInterval'>;

/** The newer points replace those of the same bucket and are appended; the window keeps its span, so the axis moves on. */
export function mergePoints(prev: QpsPoint[], next: QpsPoint[]): QpsPoint[] {
  if (!prev.length) return next;
  const span = Date.parse(prev[prev.length - 1].time) - Date.parse(prev[0].time);
  const byTime = new Map(prev.map((p) => [p.time, p]));
  for (const p of next) byTime.set(p.time, p);
  const merged = [...byTime.values()].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const start = Date.parse(merged[merged.length - 1].time) - span;
  return merged.filter((p) => Date.parse(p.time) >= start);
}

/** The QPS chart's first answer: six hours in 5-minute buckets. */
export const qpsFirstQuery = (tier: AnalyticsTier, scope: Scope) =>
  queryOptions({
    queryKey: ['security', tier, 'qps', scope],
    queryFn: () => callRoute(statisticsRoutes[tier].timeSeries, { delayMs: 0, body: { ...scope, timeInterval: QPS_SERIES.timeInterval, reportInterval: QPS_SERIES.reportInterval } }),
  });

/**
 * QPS (spec §4): six hours in 5-minute buckets first, then every QPS_POLL_MS the latest five minutes, merged in.
 * A failed poll goes through the console's failure handling and the chart keeps what it has.
 */
export function useQps(tier: AnalyticsTier, scope: Scope) {
  const queryClient = useQueryClient();
  const first = useQuery(qpsFirstQuery(tier, scope));
  const [points, setPoints] = useState<QpsPoint[]>();
  useEffect(() => setPoints(first.data?.data), [first.data]);
  useEffect(() => {
    if (!first.data) return;
    const timer = setInterval(() => {
      const startTime = new Date(Date.now() - QPS_SERIES.pollWindowMinutes * 60_000).toISOString();
      const body = { ...scope, timeInterval: 'custom' as const, startTime, reportInterval: QPS_SERIES.reportInterval };
      queryClient
        .fetchQuery({ queryKey: ['security', tier, 'qps', scope, startTime], queryFn: () => callRoute(statisticsRoutes[tier].timeSeries, { delayMs: 0, body }), staleTime: 0 })
        .then((res) => setPoints((prev) => mergePoints(prev ?? [], res.data)))
        .catch(() => undefined);
    }, QPS_POLL_MS);
    return () => clearInterval(timer);
  }, [first.data, queryClient, tier, scope]);
  return { points, window: first.data?.window };
}
