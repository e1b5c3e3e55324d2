import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '../../lib/country-name';
import { MapPanel } from '../statistics/map-panel';
import type { StatisticsWindow } from '../statistics/window-label';

/** A province's count (mainland provinces by name, Hong Kong and Macau by country code). */
export type ProvinceCount = { key: string; count: number };

const label = (key: string) => (key === 'HK' || key === 'MO' ? countryName(key) : key);

/** Requests or refusals across China on its map, and the provinces ranked beside it. */
export function ChinaPanel({ rows, window, title }: { rows: ProvinceCount[] | undefined; window: StatisticsWindow | undefined; title: string }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const data = (rows ?? []).map((r) => ({ name: r.key, value: r.count }));
    return {
      tooltip: { trigger: 'item', formatter: (p: { name: string; value?: number }) => `${label(p.name)}: ${(Number.isFinite(p.value) ? p.value! : 0).toLocaleString('en-US')}` },
      visualMap: { min: 0, max: Math.max(1, ...data.map((d) => d.value)), left: 8, bottom: 8, calculable: true, inRange: { color: ['#fff1f0', '#ff7875', '#a8071a'] } },
      series: [{ type: 'map', map: 'china', roam: true, emphasis: { label: { show: false } }, data }],
    };
  }, [rows]);
  const total = (rows ?? []).reduce((n, r) => n + r.count, 0);
  return (
    <MapPanel<ProvinceCount>
      title={title}
      window={window}
      testId="china-map"
      map="china"
      option={option}
      rows={rows}
      columns={[
        { key: 'province', title: t('statistics.dimension.province'), render: (_, r) => label(r.key) },
        { key: 'count', title: t('statistics.column.requests'), align: 'right', render: (_, r) => r.count.toLocaleString('en-US') },
        { key: 'share', title: t('statistics.column.share'), align: 'right', render: (_, r) => (total ? `${((r.count / total) * 100).toFixed(1)}%` : '-') },
      ]}
    />
  );
}
