import { z } from 'zod';
import * as s from '../schemas/statistics';
import * as l from '../schemas/logs';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

export type AnalyticsTier = 'user' | 'client';
/** The same call for the user tier (its own sites) and the client tier (its users' sites). */
export const twoTiers = <D>(make: (tier: AnalyticsTier, scope: string) => D) => ({
  user: make('user', "the user's sites"),
  client: make('client', "the client's users' sites"),
});

const tag = 'Statistics';
const statistics = (tier: AnalyticsTier | 'admin', scope: string, permission = 'statistics.view') => ({
  info: defineRoute({ id: `${tier}.statistics.info`, method: 'POST', path: `${tier}/statistics/info`, tier, permission, readOnly: true, tag,
    summary: `Cards and breakdowns (status codes, methods, HTTP and IP versions, protocols, block causes) over a window, of ${scope}`,
    body: s.statisticsFilter, response: envelope(s.statisticsInfo) }),
  timeSeries: defineRoute({ id: `${tier}.statistics.timeSeries`, method: 'POST', path: `${tier}/statistics/timeSeries`, tier, permission, readOnly: true, tag,
    summary: `One point per report interval over the window, empty buckets included, of ${scope}`,
    query: s.timeSeriesQuery, body: s.statisticsFilter, response: s.timeSeries }),
  top: defineRoute({ id: `${tier}.statistics.top`, method: 'POST', path: `${tier}/statistics/top`, tier, permission: 'statistics.view', readOnly: true, tag,
    summary: `The top values of each dimension asked for (default: the fixed tops and the area's map), ranked by countsType, of ${scope}`,
    body: s.topBody, response: envelope(s.statisticsTop) }),
  list: defineRoute({ id: `${tier}.statistics.list`, method: 'POST', path: `${tier}/statistics/list`, tier, permission: 'statistics.view', readOnly: true, tag,
    summary: `Counts grouped by one dimension (groupBy, default domain), sorted and paged, of ${scope}`,
    query: s.listQuery, body: s.listBody, response: s.statisticsList }),
  export: defineRoute({ id: `${tier}.statistics.list.export`, method: 'POST', path: `${tier}/statistics/list/export`, tier, permission: 'statistics.view', readOnly: true, tag,
    summary: `The list call's rows, all of them, as CSV text (the window and interval in its first line), of ${scope}`,
    query: s.listQuery.pick({ sortBy: true, orderBy: true }), body: s.listBody, response: z.string() }),
});

const logs = (tier: AnalyticsTier, scope: string) => ({
  access: defineRoute({ id: `${tier}.logs.access`, method: 'POST', path: `${tier}/logs/access`, tier, permission: 'accessLogs.view', readOnly: true, tag: 'Logs',
    summary: `Access lines of ${scope}, newest first, over at most one day`, body: l.logQuery, response: paged(l.accessLogItem) }),
  waf: defineRoute({ id: `${tier}.logs.waf`, method: 'POST', path: `${tier}/logs/waf`, tier, permission: 'accessLogs.view', readOnly: true, tag: 'Logs',
    summary: `Lines the edge refused, with the cause, module, rule and action, of ${scope}, newest first, over at most one day`,
    body: l.logQuery, response: paged(l.wafLogItem) }),
  apply: defineRoute({ id: `${tier}.log.export.apply`, method: 'POST', path: `${tier}/log/export/file`, tier, permission: 'logs.export', tag: 'Log export',
    summary: `Start exporting access, WAF or audit lines of a window (at most one day) to a gzip CSV file; 601001 past ${l.LOG_EXPORT_CONCURRENT_MAX} at once, 601002 past the account's daily maxLogExportTimes`,
    body: l.exportApplyBody, response: envelope(l.exportItem) }),
  list: defineRoute({ id: `${tier}.log.exports`, method: 'GET', path: `${tier}/log/exports`, tier, permission: 'logs.export', tag: 'Log export',
    summary: "The account's exports, newest first (type, sortBy, orderBy)", query: l.exportsQuery, response: paged(l.exportItem) }),
  get: defineRoute({ id: `${tier}.log.export`, method: 'GET', path: `${tier}/log/export/{ID}`, tier, permission: 'logs.export', tag: 'Log export',
    summary: 'One export with its progress', params: l.exportParams, response: envelope(l.exportItem) }),
  download: defineRoute({ id: `${tier}.log.export.download`, method: 'GET', path: `${tier}/log/export/file/{ID}`, tier, permission: 'logs.export', tag: 'Log export',
    summary: 'The completed export as a gzip CSV file (file name in Content-Disposition)', params: l.exportParams, download: true, response: z.string() }),
  remove: defineRoute({ id: `${tier}.log.exports.remove`, method: 'DELETE', path: `${tier}/log/exports`, tier, permission: 'logs.export', tag: 'Log export',
    summary: 'Delete exports and their files (deleting, then deleted)', body: l.exportIdsBody, response: done }),
  retry: defineRoute({ id: `${tier}.log.export.retry`, method: 'POST', path: `${tier}/log/export/file/retry`, tier, permission: 'logs.export', tag: 'Log export',
    summary: 'Run failed exports again', body: l.exportIdsBody, response: envelope(z.array(l.exportItem)) }),
});

export const statisticsRoutes = twoTiers(statistics);
/** The admin's dashboard widgets: cards and time series over every site of the platform. */
const platform = statistics('admin', 'every site of the platform', 'dashboard.view');
export const adminStatisticsRoutes = { info: platform.info, timeSeries: platform.timeSeries };
export const logRoutes = twoTiers(logs);

/** The user's domains for the statistics and log filters (the client's are GET client/domains/meta and tags). */
export const userDomainPickerRoutes = {
  meta: defineRoute({ id: 'user.domains.meta', method: 'POST', path: 'user/domains/meta', tier: 'user', readOnly: true, tag: 'Domains',
    summary: "Every domain of the user's sites (or of siteIDs), for pickers", body: s.domainsMetaBody, response: envelope(z.array(s.domainMeta)) }),
  tags: defineRoute({ id: 'user.domains.tags', method: 'POST', path: 'user/domains/tags', tier: 'user', readOnly: true, tag: 'Domains',
    summary: "Every tag on the user's domains (or those of siteIDs), sorted", body: s.domainsTagsBody, response: envelope(z.array(z.string())) }),
} as const;
