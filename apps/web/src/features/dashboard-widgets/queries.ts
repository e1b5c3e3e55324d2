import { useMutation, useQuery } from '@tanstack/react-query';
import { dashboardRoutes } from '@edgekeep/contract/routes/dashboard';
import { adminStatisticsRoutes, statisticsRoutes } from '@edgekeep/contract/routes/statistics';
import { WIDGET_RANGE_INTERVAL, WIDGET_REPORT_INTERVAL, type DashboardLayout, type Widget, type WidgetRange } from '@edgekeep/contract/schemas/dashboard';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import { useCan } from '../../app/use-self';
import { guessTimezone } from '../../lib/dates';

/** The areas with a widget dashboard: the client's over its users' sites, the admin's over the whole platform. */
export type DashboardTier = 'client' | 'admin';

const statsRoutes = (tier: DashboardTier) => (tier === 'admin' ? adminStatisticsRoutes : statisticsRoutes.client);

export const dashboardKeys = {
  layout: (tier: DashboardTier) => ['dashboard', tier, 'layout'] as const,
  info: (tier: DashboardTier, range: WidgetRange) => ['dashboard', tier, 'info', range] as const,
  series: (tier: DashboardTier, range: WidgetRange, reportInterval: number) => ['dashboard', tier, 'series', range, reportInterval] as const,
};

export const useDashboardLayout = (tier: DashboardTier) =>
  useQuery({ queryKey: dashboardKeys.layout(tier), queryFn: () => callRoute(dashboardRoutes[tier].get), staleTime: 0 });

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
const useMayRead = (tier: DashboardTier) => useCan()(tier === 'admin' ? 'dashboard.view' : 'statistics.view');

/** The cards of one range: every card widget of that range shares the one answer. */
export const useWidgetInfo = (tier: DashboardTier, range: WidgetRange) =>
  useQuery({
    queryKey: dashboardKeys.info(tier, range),
    queryFn: () => callRoute(statsRoutes(tier).info, { body: filterOf(range, WIDGET_REPORT_INTERVAL) }),
    enabled: useMayRead(tier),
  });

export const useWidgetSeries = (tier: DashboardTier, range: WidgetRange, reportInterval: Widget['options']['reportInterval']) =>
  useQuery({
    queryKey: dashboardKeys.series(tier, range, reportInterval),
    queryFn: () => callRoute(statsRoutes(tier).timeSeries, { body: filterOf(range, reportInterval) }),
    enabled: useMayRead(tier),
  });
