import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { dashboardRoutes } from '@edgekeep/contract/routes/dashboard';
import { adminStatisticsRoutes, statisticsRoutes } from '@edgekeep/contract/routes/statistics';
import { WIDGET_RANGE_INTERVAL, WIDGET_REPORT_INTERVAL, type DashboardLayout, type Widget, type WidgetRange } from '@edgekeep/contract/schemas/dashboard';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import { loadSelf, selfQueryKey, useCan } from '../../app/use-self';
import { isChart } from './layout-state';
import { guessTimezone } from '../../lib/dates';

/** The areas with a widget dashboard: the client's over its users' sites, the admin's over the whole platform. */
export type DashboardTier = 'client' | 'admin';

const statsRoutes = (tier: DashboardTier) => (tier === 'admin' ? adminStatisticsRoutes : statisticsRoutes.client);

export const dashboardKeys = {
  layout: (tier: DashboardTier) => ['dashboard', tier, 'layout'] as const,
  info: (tier: DashboardTier, range: WidgetRange) => ['dashboard', tier, 'info', range] as const,
  series: (tier: DashboardTier, range: WidgetRange, reportInterval: number) => ['dashboard', tier, 'series', range, reportInterval] as const,
};

/** A layout read at navigation stays fresh while the screen mounts; a later visit reads it again. */
const LAYOUT_FRESH_MS = 5000;

const layoutQuery = (tier: DashboardTier) =>
  queryOptions({ queryKey: dashboardKeys.layout(tier), queryFn: () => callRoute(dashboardRoutes[tier].get, { delayMs: 0 }), staleTime: LAYOUT_FRESH_MS });

export const useDashboardLayout = (tier: DashboardTier) => useQuery(layoutQuery(tier));

export const useSaveDashboard = (tier: DashboardTier) =>
  useMutation({
    mutationFn: (layout: DashboardLayout) => callRoute(dashboardRoutes[tier].put, { body: layout }),
    onSuccess: (answer) => queryClient.setQueryData(dashboardKeys.layout(tier), answer),
  });

const filterOf = (range: WidgetRange, reportInterval: Widget['options']['reportInterval']) => ({
  timeInterval: WIDGET_RANGE_INTERVAL[range],
  reportInterval,
  timeZone: guessTimezone(),
});

/** A client's widgets read its statistics calls, which take their own permission; the admin's take the dashboard's. */
const readKey = (tier: DashboardTier) => (tier === 'admin' ? 'dashboard.view' : 'statistics.view');

/** The cards of one range: every card widget of that range shares the one answer. */
const infoQuery = (tier: DashboardTier, range: WidgetRange) =>
  queryOptions({
    queryKey: dashboardKeys.info(tier, range),
    queryFn: () => callRoute(statsRoutes(tier).info, { delayMs: 0, body: filterOf(range, WIDGET_REPORT_INTERVAL) }),
  });

const seriesQuery = (tier: DashboardTier, range: WidgetRange, reportInterval: Widget['options']['reportInterval']) =>
  queryOptions({
    queryKey: dashboardKeys.series(tier, range, reportInterval),
    queryFn: () => callRoute(statsRoutes(tier).timeSeries, { delayMs: 0, body: filterOf(range, reportInterval) }),
  });

export const useWidgetInfo = (tier: DashboardTier, range: WidgetRange) => useQuery({ ...infoQuery(tier, range), enabled: useCan()(readKey(tier)) });

export const useWidgetSeries = (tier: DashboardTier, range: WidgetRange, reportInterval: Widget['options']['reportInterval']) =>
  useQuery({ ...seriesQuery(tier, range, reportInterval), enabled: useCan()(readKey(tier)) });

/**
 * Starts what the dashboard's first page needs while the console is still loading: the layout, then the answers of
 * its widgets (where the account may read them), so that they arrive together with the screen's code.
 */
export async function preloadDashboard(tier: DashboardTier) {
  const [self, layout] = await Promise.all([queryClient.fetchQuery({ queryKey: selfQueryKey(tier), queryFn: () => loadSelf(tier) }), queryClient.fetchQuery(layoutQuery(tier))]);
  if (!self.permissions.includes(readKey(tier))) return;
  const widgets = layout.data.pages[0]?.widgets ?? [];
  await Promise.all(
    widgets.map(({ type, options: { range, reportInterval } }) =>
      isChart(type) ? queryClient.prefetchQuery(seriesQuery(tier, range, reportInterval)) : queryClient.prefetchQuery(infoQuery(tier, range)),
    ),
  );
}
