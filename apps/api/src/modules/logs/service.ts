import type { logSchemas } from '@edgekeep/contract';
import type { LineFilter, RawLine } from '../../analytics/types';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachableSiteIds } from '../statistics/scope';

/** A Log query's filters as the store's line filter, over the sites the caller reaches (or chose). */
export async function lineFilter(deps: AppDeps, principal: Principal, q: logSchemas.LogFilter & { blockedOnly?: boolean }): Promise<LineFilter> {
  return {
    siteIds: await reachableSiteIds(deps, principal, q.siteIDs),
    from: new Date(q.startTime),
    to: new Date(q.endTime),
    domains: q.domains?.map((d) => d.toLowerCase()),
    clientIp: q.remoteIP || undefined,
    cacheStatus: q.cacheStatus || undefined,
    uri: q.uri || undefined,
    status: q.status,
    blockedOnly: q.blockedOnly,
  };
}

export const accessItem = (l: RawLine) => ({
  time: l.time.toISOString(),
  requestId: l.requestId,
  siteID: l.siteId,
  domain: l.domain,
  nodeID: l.nodeId,
  remoteIP: l.clientIp,
  country: l.country,
  region: l.region,
  city: l.city,
  isp: l.isp,
  asn: l.asn,
  protocol: l.scheme,
  method: l.method,
  uri: l.uri,
  status: l.status,
  bytesSent: l.bytesSent,
  bytesReceived: l.bytesReceived,
  requestTime: l.requestTime,
  upstreamTime: l.upstreamTime,
  cacheStatus: l.cacheStatus,
  httpVersion: l.httpVersion,
  referer: l.referer,
  userAgent: l.userAgent,
});

/** A refused line: the rule is logged as `moduleId:ruleId`. */
export const wafItem = (l: RawLine) => {
  const at = l.blockRule.indexOf(':');
  return {
    ...accessItem(l),
    cause: l.blockCause,
    module: at < 0 ? '' : l.blockRule.slice(0, at),
    rule: at < 0 ? l.blockRule : l.blockRule.slice(at + 1),
    action: l.blockAction,
  };
};

async function search<T>(deps: AppDeps, principal: Principal, q: logSchemas.LogQuery, o: { blockedOnly?: true; item: (l: RawLine) => T }) {
  const filter = await lineFilter(deps, principal, { ...q, blockedOnly: o.blockedOnly });
  const { rows, total } = await deps.analytics.lines(filter, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
  return { data: rows.map(o.item), total };
}

export const accessLogs = (deps: AppDeps, principal: Principal, q: logSchemas.LogQuery) => search(deps, principal, q, { item: accessItem });
export const wafLogs = (deps: AppDeps, principal: Principal, q: logSchemas.LogQuery) => search(deps, principal, q, { blockedOnly: true, item: wafItem });
