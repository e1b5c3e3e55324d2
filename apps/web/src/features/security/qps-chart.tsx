import { Skeleton } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import { Chart, Panel } from '../statistics/panel';
import type { StatisticsWindow } from '../statistics/window-label';
import type { QpsPoint } from './use-qps';

/** Requests per second per 5-minute bucket, the refused ones beside them; the requests of the buckets shown in the title. */
export function QpsChart({ points, window }: { points: QpsPoint[] | undefined; window: StatisticsWindow | undefined }) {
  const { t } = useTranslation();
  const total = points?.reduce((n, p) => n + p.reqCount, 0);
  const option = useMemo(() => {
    const data = points ?? [];
    // Refused requests per second of the bucket: qps is reqCount over the bucket's seconds.
    const refused = (p: QpsPoint) => (p.reqCount ? (p.blocked * p.qps) / p.reqCount : 0);
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => v.toFixed(2) },
      legend: { top: 0 },
      grid: { left: 60, right: 20, top: 36, bottom: 30 },
      xAxis: { type: 'category', boundaryGap: false, data: data.map((p) => formatDate(p.time, 'minute')) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => v.toFixed(3) } },
      series: [
        { name: t('security.qps.all'), type: 'line', showSymbol: data.length < 2, data: data.map((p) => p.qps) },
        { name: t('security.qps.refused'), type: 'line', showSymbol: data.length < 2, data: data.map(refused) },
      ],
    };
  }, [points, t]);
  return (
    <Panel title={`${t('security.qps.title')} · ${t('security.qps.requests', { n: total === undefined ? '---' : total.toLocaleString('en-US') })}`} window={window} testId="qps-chart">
      {/* The chart (and ECharts) mounts with the first answer, after the screen around it is shown. */}
      {points ? <Chart option={option} height={280} /> : <Skeleton.Node active style={{ width: '100%', height: 280 }} />}
    </Panel>
  );
}
