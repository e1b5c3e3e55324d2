import type { Widget, WidgetMeasure } from '@edgekeep/contract/schemas/dashboard';
import type { statisticsInfo } from '@edgekeep/contract/schemas/statistics';
import { Card, Space, Statistic, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatBytes } from '../../lib/units';
import { Chart, Panel, WindowNote } from '../statistics/panel';
import { bandwidth, count, lineOption, rate, type Axis, type Line } from '../statistics/series-charts';
import { isChart } from './layout-state';
import { useWidgetInfo, useWidgetSeries, type DashboardTier } from './queries';
import { MEASURE_KEYS, measureOf, RANGE_KEYS } from './widget-labels';

type Info = z.output<typeof statisticsInfo>;
type WidgetProps = { tier: DashboardTier; widget: Widget; height: number };

const CARD_VALUES = {
  traffic: (i: Info) => formatBytes(i.cards.totalTraffics),
  cache: (i: Info) => formatBytes(i.cards.totalCache),
  bandwidth: (i: Info) => bandwidth(i.cards.peakBandwidth),
  requests: (i: Info) => count(i.cards.reqCount),
  upstream: (i: Info) => count(i.cards.upstreamCount),
  status: (i: Info) => count(i.cards.respCount),
};

function useTitle(widget: Widget) {
  const { t } = useTranslation();
  return widget.options.title || `${t(MEASURE_KEYS[measureOf(widget.type)])} · ${t(RANGE_KEYS[widget.options.range])}`;
}

/** A total over the widget's range: the cache card adds its hits, the status card each code's requests. */
function CardWidget({ tier, widget }: WidgetProps) {
  const { t } = useTranslation();
  const title = useTitle(widget);
  const info = useWidgetInfo(tier, widget.options.range).data?.data;
  const measure = measureOf(widget.type);
  const codes = Object.entries(info?.statusCodes ?? {}).sort((a, b) => b[1] - a[1]);
  return (
    <Card size="small" style={{ height: '100%', overflow: 'auto' }} data-testid={`widget-${widget.i}`}>
      <Statistic title={title} value={info ? CARD_VALUES[measure](info) : '---'} valueRender={(node) => <span data-testid="widget-value">{node}</span>} />
      {info && measure === 'cache' ? <Typography.Text type="secondary">{t('dashboardWidgets.cacheHits', { count: info.cards.cacheHits })}</Typography.Text> : null}
      {measure === 'status' ? (
        <Space size={[4, 4]} wrap data-testid="widget-status-codes">
          {codes.map(([code, n]) => <Tag key={code}>{`${code}: ${count(n)}`}</Tag>)}
        </Space>
      ) : null}
      <div>
        <WindowNote window={info?.window} />
      </div>
    </Card>
  );
}

type ChartSpec = { axes: [Axis, Axis?]; lines: (t: TFunction) => Line[] };

const CHARTS: Record<WidgetMeasure, ChartSpec> = {
  traffic: { axes: [formatBytes], lines: (t) => [{ name: t('statistics.series.traffic'), pick: (p) => p.traffic }] },
  bandwidth: { axes: [bandwidth], lines: (t) => [{ name: t('statistics.series.bandwidth'), pick: (p) => p.bandwidth }] },
  requests: {
    axes: [count, rate],
    lines: (t) => [{ name: t('statistics.series.requests'), pick: (p) => p.reqCount }, { name: t('statistics.series.qps'), pick: (p) => p.qps, axis: 1 }],
  },
  cache: {
    axes: [count, formatBytes],
    lines: (t) => [{ name: t('statistics.series.cacheHits'), pick: (p) => p.cacheHits }, { name: t('statistics.series.cacheTraffic'), pick: (p) => p.cacheTraffic, axis: 1 }],
  },
  upstream: { axes: [count], lines: (t) => [{ name: t('statistics.series.upstream'), pick: (p) => p.upstreamCount }] },
  status: { axes: [count], lines: () => (['status2xx', 'status3xx', 'status4xx', 'status5xx'] as const).map((k) => ({ name: k.slice(6), pick: (p) => p[k], stack: true })) },
};

/** A time series over the widget's range at its report interval. */
function ChartWidget({ tier, widget, height }: WidgetProps) {
  const { t } = useTranslation();
  const title = useTitle(widget);
  const answer = useWidgetSeries(tier, widget.options.range, widget.options.reportInterval).data;
  const spec = CHARTS[measureOf(widget.type)];
  const option = useMemo(
    () => lineOption({
      points: answer?.data ?? [],
      lines: spec.lines(t),
      axes: spec.axes,
      day: widget.options.reportInterval >= 1440,
    }),
    [answer, spec, t, widget.options.reportInterval],
  );
  return (
    <Panel title={title} window={answer?.window} testId={`widget-${widget.i}`}>
      <Chart option={option} height={height} />
    </Panel>
  );
}

export function WidgetView(props: WidgetProps) {
  return isChart(props.widget.type) ? <ChartWidget {...props} /> : <CardWidget {...props} />;
}
