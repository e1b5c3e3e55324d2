import { useMemo } from 'react';
import { formatDate } from '../../lib/dates';
import { formatBits } from '../../lib/units';
import type { ChartOption } from '../statistics/echart';
import { Chart } from '../statistics/panel';

type Line = { name: string; data: { time: string; value: number }[] };

/** Average bit rates over the window's buckets, one line each. */
export function BitRateChart({ lines, day, testId }: { lines: Line[]; day: boolean; testId: string }) {
  const option = useMemo<ChartOption>(() => {
    const times = (lines[0]?.data ?? []).map((p) => formatDate(p.time, day ? 'date' : 'minute'));
    const rate = (n: number) => `${formatBits(n)}/s`;
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => rate(v) },
      legend: { top: 0 },
      grid: { left: 80, right: 20, top: 36, bottom: 30 },
      xAxis: { type: 'category', data: times, boundaryGap: false },
      yAxis: { type: 'value', axisLabel: { formatter: rate } },
      series: lines.map((l) => ({ name: l.name, type: 'line', showSymbol: times.length < 2, data: l.data.map((p) => p.value) })),
    };
  }, [lines, day]);
  return <Chart option={option} testId={testId} />;
}
