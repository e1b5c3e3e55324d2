import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '../../lib/country-name';
import { formatBytes } from '../../lib/units';
import { MapPanel } from './map-panel';
import { rowLabel, type StatisticsRow } from './top-tables';
import type { StatisticsWindow } from './window-label';

type CountsType = 'requests' | 'traffic';
type Props = { rows: StatisticsRow[] | undefined; window: StatisticsWindow | undefined; countsType: CountsType };

const valueOf = (r: StatisticsRow, countsType: CountsType) => (countsType === 'traffic' ? r.traffic : r.reqCount);
const formatOf = (n: number, countsType: CountsType) => (countsType === 'traffic' ? formatBytes(n) : n.toLocaleString('en-US'));

/** Requests or traffic by country over the window: the world map, and the countries ranked beside it. */
export function CountryMap({ rows, window, countsType }: Props) {
  const { t } = useTranslation();
  const value = (r: StatisticsRow) => valueOf(r, countsType);
  const format = (n: number) => formatOf(n, countsType);
  const option = useMemo(() => {
    const data = (rows ?? []).map((r) => ({ name: r.key, value: valueOf(r, countsType) }));
    return {
      tooltip: { trigger: 'item', formatter: (p: { name: string; value?: number }) => `${countryName(p.name)}: ${formatOf(Number.isFinite(p.value) ? p.value! : 0, countsType)}` },
      visualMap: { min: 0, max: Math.max(1, ...data.map((d) => d.value)), left: 8, bottom: 8, calculable: true, inRange: { color: ['#e6f4ff', '#1677ff', '#002c8c'] }, formatter: (v: number) => formatOf(v, countsType) },
      series: [{ type: 'map', map: 'world', roam: true, emphasis: { label: { show: false } }, data }],
    };
  }, [rows, countsType]);
  return (
    <MapPanel<StatisticsRow>
      title={t('statistics.mapTitle')}
      window={window}
      testId="country-map"
      map="world"
      option={option}
      rows={rows}
      columns={[
        { key: 'country', title: t('statistics.dimension.country'), render: (_, r) => rowLabel('country', r) },
        { key: 'value', title: countsType === 'traffic' ? t('statistics.column.traffic') : t('statistics.column.requests'), align: 'right', render: (_, r) => format(value(r)) },
        { key: 'share', title: t('statistics.column.share'), align: 'right', render: (_, r) => `${r.share}%` },
      ]}
    />
  );
}
