import type { securityPoint } from '@edgekeep/contract/schemas/security';
import { Empty } from 'antd';
import type { ParseKeys } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatDate } from '../../lib/dates';
import { Chart, Panel } from '../statistics/panel';
import type { StatisticsWindow } from '../statistics/window-label';

type Point = z.output<typeof securityPoint>;

/** Refusals per bucket of the window (60 minutes by default), as bars; the total in the title. */
export function RefusalChart({ title, points, window, testId }: { title: ParseKeys; points: Point[] | undefined; window: StatisticsWindow | undefined; testId: string }) {
  const { t } = useTranslation();
  const total = points?.reduce((n, p) => n + p.count, 0);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 50, right: 20, top: 20, bottom: 30 },
      xAxis: { type: 'category', data: (points ?? []).map((p) => formatDate(p.time, 'minute')) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ name: t(title), type: 'bar', data: (points ?? []).map((p) => p.count) }],
    }),
    [points, t, title],
  );
  return (
    <Panel title={`${t(title)}: ${total === undefined ? '---' : total.toLocaleString('en-US')}`} window={window} testId={testId}>
      {points && !total ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ height: 208 }} /> : <Chart option={option} height={240} />}
    </Panel>
  );
}
