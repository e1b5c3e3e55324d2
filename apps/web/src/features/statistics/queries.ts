import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientDomainRoutes } from '@edgekeep/contract/routes/client-domains';
import { infraRoutes } from '@edgekeep/contract/routes/infra';
import { siteRoutes } from '@edgekeep/contract/routes/sites';
import { statisticsRoutes, userDomainPickerRoutes } from '@edgekeep/contract/routes/statistics';
import type { Dimension, listBody, listQuery, statisticsFilter } from '@edgekeep/contract/schemas/statistics';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { useCan } from '../../app/use-self';

export type AnalyticsTier = 'user' | 'client';
export const analyticsTier = (tier: string): AnalyticsTier => (tier === 'client' ? 'client' : 'user');
export type StatisticsFilter = z.input<typeof statisticsFilter>;
export type ListBody = z.input<typeof listBody>;
export type ListQuery = z.input<typeof listQuery>;

/** The fixed top lists of the statistics screen (spec §9: ten each), and the map's (thirty). */
export const TOP_DIMENSIONS: Dimension[] = [
  'domain', 'url', 'refererHost', 'clientIp', 'isp', 'uaFamily', 'status', 'method', 'httpVersion', 'protocol', 'cacheStatus', 'blockCause',
];
export const FIXED_TOP = 10;
export const AREA_TOP = 30;

export const statisticsKeys = {
  all: (tier: AnalyticsTier) => ['statistics', tier] as const,
  info: (tier: AnalyticsTier, filter: StatisticsFilter) => ['statistics', tier, 'info', filter] as const,
  timeSeries: (tier: AnalyticsTier, filter: StatisticsFilter) => ['statistics', tier, 'timeSeries', filter] as const,
  top: (tier: AnalyticsTier, filter: StatisticsFilter, dimensions: Dimension[], top: number) => ['statistics', tier, 'top', filter, dimensions, top] as const,
  list: (tier: AnalyticsTier, body: ListBody) => ['statistics', tier, 'list', body] as const,
  pickers: (tier: AnalyticsTier) => ['statistics', tier, 'pickers'] as const,
};

export const statisticsInfoQuery = (tier: AnalyticsTier, filter: StatisticsFilter) =>
  queryOptions({ queryKey: statisticsKeys.info(tier, filter), queryFn: () => callRoute(statisticsRoutes[tier].info, { delayMs: 0, body: filter }) });

export const useStatisticsInfo = (tier: AnalyticsTier, filter: StatisticsFilter) => useQuery(statisticsInfoQuery(tier, filter));

export const useTimeSeries = (tier: AnalyticsTier, filter: StatisticsFilter) =>
  useQuery({ queryKey: statisticsKeys.timeSeries(tier, filter), queryFn: () => callRoute(statisticsRoutes[tier].timeSeries, { delayMs: 0, body: filter }) });

export const useTops = ({ tier, filter, dimensions, top }: { tier: AnalyticsTier; filter: StatisticsFilter; dimensions: Dimension[]; top: number }) =>
  useQuery({
    queryKey: statisticsKeys.top(tier, filter, dimensions, top),
    queryFn: () => callRoute(statisticsRoutes[tier].top, { delayMs: 0, body: { ...filter, dimensions, top } }),
  });

/** One page of the list call; the DataTable's paging and sort are its query. */
export const fetchStatisticsList = ({ tier, body, query }: { tier: AnalyticsTier; body: ListBody; query: Record<string, string | number> }) =>
  callRoute(statisticsRoutes[tier].list, { body, query: query as ListQuery });

export const exportStatisticsList = ({ tier, body, query }: { tier: AnalyticsTier; body: ListBody; query: Pick<ListQuery, 'sortBy' | 'orderBy'> }) =>
  callRoute(statisticsRoutes[tier].export, { body, query });

export type Option = { value: string | number; label: string };
export type Pickers = { zones: Option[]; sites: Option[]; domains: Option[]; tags: Option[] };

const named = (items: { id: number; name: string }[]) => items.map((i) => ({ value: i.id, label: i.name }));
const plain = (items: string[]) => items.map((v) => ({ value: v, label: v }));

const none = async () => ({ data: [] });

/** What the filters offer: the client's zones, and the sites, domains and domain tags the account reaches (as far as it may list them). */
async function loadPickers(tier: AnalyticsTier, can: (key: string) => boolean): Promise<Pickers> {
  if (tier === 'client') {
    const [zones, sites, domains, tags] = await Promise.all([
      can('zones.view') ? callRoute(infraRoutes.metaZones) : none(),
      can('sites.view') ? callRoute(siteRoutes.metaSites) : none(),
      can('sites.view') ? callRoute(clientDomainRoutes.meta) : none(),
      can('sites.view') ? callRoute(clientDomainRoutes.tags) : none(),
    ]);
    return { zones: named(zones.data), sites: named(sites.data), domains: plain(domains.data.map((d) => d.name)), tags: plain(tags.data) };
  }
  const [sites, domains, tags] = await Promise.all([
    can('sites.view') ? callRoute(siteRoutes.userMetaSites) : none(),
    callRoute(userDomainPickerRoutes.meta, { body: {} }),
    callRoute(userDomainPickerRoutes.tags, { body: {} }),
  ]);
  return { zones: [], sites: named(sites.data), domains: plain(domains.data.map((d) => d.domain)), tags: plain(tags.data) };
}

export function usePickers(tier: AnalyticsTier) {
  const can = useCan();
  return useQuery({ queryKey: statisticsKeys.pickers(tier), queryFn: () => loadPickers(tier, can), staleTime: 300_000 });
}
