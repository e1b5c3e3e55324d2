import type { timeSeriesPoint } from '@edgekeep/contract/schemas/statistics';
import { Col, Row } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatDate } from '../../lib/dates';
import { formatBits, formatBytes } from '../../lib/units';
import type { ChartOption } from './echart';
import { Chart, Panel } from './panel';
import type { StatisticsWindow } from './window-label';

type Point = z.output<typeof timeSeriesPoint>;
export type Line = { name: string; pick: (p: Point) => number; axis?: 1; stack?: boolean };
export type Axis = (n: number) => string;

export const count: Axis = (n) => n.toLocaleString('en-US');
export const rate: Axis = (n) => n.toFixed(2);
export const bandwidth: Axis = (n) => `${formatBits(n)}/s`;

/** A line chart over the buckets: a left axis and, for rates, a right one. */
export function lineOption({ points, lines, axes, day }: { points: Point[]; lines: Line[]; axes: [Axis, Axis?]; day: boolean }): ChartOption {
  const times = points.map((p) => formatDate(p.time, day ? 'date' : 'minute'));
  const axis = (format: Axis) => ({ type: 'value', axisLabel: { formatter: format } });
  return {
    tooltip: {
      trigger: 'axis',
      formatter: (items: { seriesIndex: number; marker: string; seriesName: string; value: number; axisValueLabel: string }[]) =>
        [items[0]?.axisValueLabel, ...items.map((i) => `${i.marker}${i.seriesName}: ${(lines[i.seriesIndex].axis ? axes[1]! : axes[0])(i.value)}`)].join('<br/>'),
    },
    legend: { top: 0 },
    grid: { left: 70, right: axes[1] ? 80 : 20, top: 36, bottom: 30 },
    xAxis: { type: 'category', data: times, boundaryGap: false },
    yAxis: axes[1] ? [axis(axes[0]), axis(axes[1])] : [axis(axes[0])],
    series: lines.map((l) => ({
      name: l.name,
      type: 'line',
      showSymbol: points.length < 2,
      yAxisIndex: l.axis ?? 0,
      stack: l.stack ? 'total' : undefined,
      areaStyle: l.stack ? {} : undefined,
      data: points.map(l.pick),
    })),
  };
}

const charts = (t: TFunction) => [
  {
    key: 'traffic',
    title: t('statistics.chart.traffic'),
    axes: [formatBytes, bandwidth] as [Axis, Axis],
    lines: [
      { name: t('statistics.series.traffic'), pick: (p: Point) => p.traffic },
      { name: t('statistics.series.bandwidth'), pick: (p: Point) => p.bandwidth, axis: 1 as const },
    ],
  },
  {
    key: 'requests',
    title: t('statistics.chart.requests'),
    axes: [count, rate] as [Axis, Axis],
    lines: [
      { name: t('statistics.series.requests'), pick: (p: Point) => p.reqCount },
      { name: t('statistics.series.qps'), pick: (p: Point) => p.qps, axis: 1 as const },
    ],
  },
  {
    key: 'cache',
    title: t('statistics.chart.cache'),
    axes: [count, formatBytes] as [Axis, Axis],
    lines: [
      { name: t('statistics.series.cacheHits'), pick: (p: Point) => p.cacheHits },
      { name: t('statistics.series.upstream'), pick: (p: Point) => p.upstreamCount },
      { name: t('statistics.series.cacheTraffic'), pick: (p: Point) => p.cacheTraffic, axis: 1 as const },
    ],
  },
  {
    key: 'status',
    title: t('statistics.chart.status'),
    axes: [count] as [Axis],
    lines: (['status2xx', 'status3xx', 'status4xx', 'status5xx'] as const).map((k) => ({ name: `${k.slice(6)}`, pick: (p: Point) => p[k], stack: true })),
  },
  {
    key: 'blocked',
    title: t('statistics.chart.blocked'),
    axes: [count] as [Axis],
    lines: [{ name: t('statistics.series.blocked'), pick: (p: Point) => p.blocked }],
  },
];

/** The time series of the window: traffic and bandwidth, requests and QPS, cache, status classes, blocked. */
export function SeriesCharts({ points, window }: { points: Point[] | undefined; window: StatisticsWindow | undefined }) {
  const { t } = useTranslation();
  const day = (window?.reportInterval ?? 0) >= 1440;
  const options = useMemo(() => charts(t).map((c) => ({ ...c, option: lineOption({ points: points ?? [], lines: c.lines, axes: c.axes, day }) })), [t, points, day]);
  return (
    <Row gutter={[12, 12]}>
      {options.map((c) => (
        <Col key={c.key} xs={24} xl={c.key === 'blocked' ? 24 : 12}>
          <Panel title={c.title} window={window} testId={`chart-${c.key}`}>
            <Chart option={c.option} />
          </Panel>
        </Col>
      ))}
    </Row>
  );
}
