import type { WidgetMeasure, WidgetRange, WidgetType } from '@edgekeep/contract/schemas/dashboard';
import type { ParseKeys } from 'i18next';

export const MEASURE_KEYS: Record<WidgetMeasure, ParseKeys> = {
  traffic: 'dashboardWidgets.measure.traffic',
  cache: 'dashboardWidgets.measure.cache',
  bandwidth: 'dashboardWidgets.measure.bandwidth',
  requests: 'dashboardWidgets.measure.requests',
  upstream: 'dashboardWidgets.measure.upstream',
  status: 'dashboardWidgets.measure.status',
};

export const RANGE_KEYS: Record<WidgetRange, ParseKeys> = {
  last24Hours: 'dashboardWidgets.range.last24Hours',
  last30Days: 'dashboardWidgets.range.last30Days',
};

export const measureOf = (type: WidgetType) => type.replace(/(Card|Chart)$/, '') as WidgetMeasure;
