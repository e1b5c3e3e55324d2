import { STATISTICS_DEFAULTS, STATISTICS_SCREEN_INTERVAL } from '@edgekeep/contract/schemas/statistics';
import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { guessTimezone } from '../../lib/dates';
import { Breakdowns } from './breakdowns';
import { StatisticsCards } from './cards';
import { CountryMap } from './country-map';
import { StatisticsFilterBar } from './filter-bar';
import { AREA_TOP, FIXED_TOP, statisticsKeys, TOP_DIMENSIONS, useStatisticsInfo, useTimeSeries, useTops, analyticsTier, type StatisticsFilter } from './queries';
import { SeriesCharts } from './series-charts';
import { TopTables } from './top-tables';

/** The filter the statistics screen opens on (spec §9: three hours, 5-minute buckets). */
export const initialFilter = (): StatisticsFilter => ({
  timeInterval: STATISTICS_SCREEN_INTERVAL,
  reportInterval: STATISTICS_DEFAULTS.reportInterval,
  timeZone: guessTimezone(),
  countsType: 'requests',
  outcomes: 'all',
});

/** Statistics: cards, time series, top lists, breakdowns and the map of the window the filter picks. */
export default function StatisticsPage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState(initialFilter);
  const info = useStatisticsInfo(tier, filter);
  const series = useTimeSeries(tier, filter);
  const tops = useTops({ tier, filter, dimensions: TOP_DIMENSIONS, top: FIXED_TOP });
  const countries = useTops({ tier, filter: { ...filter, area: 'country' }, dimensions: ['country'], top: AREA_TOP });
  const infoData = info.data;
  const seriesData = series.data;
  const topsData = tops.data;
  const countryData = countries.data;
  const refresh = (
    <Button icon={<ReloadOutlined />} onClick={() => void queryClient.invalidateQueries({ queryKey: statisticsKeys.all(tier) })}>
      {t('statistics.refresh')}
    </Button>
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="statistics-page">
      <Card size="small" title={t('menu.statistics')}>
        <StatisticsFilterBar tier={tier} filter={filter} onChange={setFilter} extra={refresh} />
      </Card>
      <StatisticsCards cards={infoData?.data.cards} window={infoData?.data.window} />
      <SeriesCharts points={seriesData?.data} window={seriesData?.window} />
      <CountryMap rows={countryData?.data.tops[0]?.items} window={countryData?.data.window} countsType={filter.countsType ?? 'requests'} />
      <TopTables tops={topsData?.data.tops} window={topsData?.data.window} dimensions={TOP_DIMENSIONS} />
      <Breakdowns info={infoData?.data} />
    </Space>
  );
}
