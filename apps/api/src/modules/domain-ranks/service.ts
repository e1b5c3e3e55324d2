import type { domainRankSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { monthOf, monthRange } from '../traffic/usage';

type Query = z.infer<typeof domainRankSchemas.domainRanksQuery>;

/** The ranking of the domains of the sites the caller reaches (one site when siteID is given). */
export async function domainRanks(deps: AppDeps, principal: Principal, query: Query) {
  const siteIds = query.siteID
    ? [(await sitesRepo(deps, principal).get(query.siteID)).id]
    : (await (await sitesRepo(deps, principal).query()).clearSelect().select('sites.id').execute()).map((r) => r.id);
  const month = monthRange(monthOf());
  const from = query.startTime ?? month.from;
  const to = query.endTime ?? (query.startTime ? new Date() : month.to);
  const { rows, total } = await deps.analytics.domainRanks({
    from,
    to,
    siteIds,
    sortBy: query.sortBy ?? 'traffic',
    order: query.orderBy?.startsWith('asc') ? 'asc' : 'desc',
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { data: rows.map((r) => ({ key: `${r.siteId}:${r.domain}`, domain: r.domain, siteID: r.siteId, traffic: r.traffic, reqCount: r.requests })), total };
}
