import { logRoutes } from '@edgekeep/contract/routes/statistics';
import type { accessLogItem, LogFilter, wafLogItem } from '@edgekeep/contract/schemas/logs';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';
import type { AnalyticsTier } from '../statistics/queries';

export type AccessLogItem = z.output<typeof accessLogItem>;
export type WafLogItem = z.output<typeof wafLogItem>;
export type LogKind = 'access' | 'waf';
export type { LogFilter };

export const logKeys = {
  lines: (tier: AnalyticsTier, kind: LogKind, filter: LogFilter) => ['logs', tier, kind, filter] as const,
};

/** One page of access or WAF lines, newest first, of the filter's window. */
export const fetchLogLines = ({ tier, kind, filter, query }: { tier: AnalyticsTier; kind: LogKind; filter: LogFilter; query: ListQuery }) =>
  callRoute(logRoutes[tier][kind], { body: { ...filter, page: Number(query.page), pageSize: Number(query.pageSize) } });
