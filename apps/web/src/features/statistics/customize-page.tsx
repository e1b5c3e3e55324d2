import { DIMENSIONS, type Dimension } from '@edgekeep/contract/schemas/statistics';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Select, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { useListParams } from '../../components/list-params';
import { formatBytes } from '../../lib/units';
import { saveText } from '../../lib/save-text';
import { DIMENSION_KEYS } from './dimension-labels';
import { StatisticsFilterBar } from './filter-bar';
import { WindowNote } from './panel';
import { analyticsTier, exportStatisticsList, fetchStatisticsList, statisticsKeys, type ListQuery } from './queries';
import { initialFilter } from './statistics-page';
import { rowLabel, type StatisticsRow } from './top-tables';
import { csvFileName, type StatisticsWindow } from './window-label';

type Sort = NonNullable<ListQuery['sortBy']>;

/** Custom statistics: the window's counts grouped by one dimension, sorted and paged, and exported as CSV. */
export default function StatisticsCustomizePage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const list = useListParams();
  const [filter, setFilter] = useState(initialFilter);
  const [groupBy, setGroupBy] = useState<Dimension>('domain');
  const [window, setWindow] = useState<StatisticsWindow>();
  const [exporting, setExporting] = useState(false);
  const body = { ...filter, groupBy };
  const sort = { sortBy: list.sortBy as Sort | undefined, orderBy: list.orderBy };
  const sorted = (key: Sort) => ({ key, sorter: true });
  const columns: TableColumnsType<StatisticsRow> = [
    { ...sorted('key'), title: t(DIMENSION_KEYS[groupBy]), render: (_, r) => rowLabel(groupBy, r) },
    { ...sorted('reqCount'), title: t('statistics.column.requests'), align: 'right', render: (_, r) => r.reqCount.toLocaleString('en-US') },
    { ...sorted('traffic'), title: t('statistics.column.traffic'), align: 'right', render: (_, r) => formatBytes(r.traffic) },
    { ...sorted('cacheHits'), title: t('statistics.column.cacheHits'), align: 'right', render: (_, r) => r.cacheHits.toLocaleString('en-US') },
    { ...sorted('cacheTraffic'), title: t('statistics.column.cacheTraffic'), align: 'right', render: (_, r) => formatBytes(r.cacheTraffic) },
    { ...sorted('blocked'), title: t('statistics.column.blocked'), align: 'right', render: (_, r) => r.blocked.toLocaleString('en-US') },
    { key: 'share', title: t('statistics.column.share'), align: 'right', render: (_, r) => `${r.share}%` },
  ];
  const fetch = async (query: Record<string, string | number>) => {
    const answer = await fetchStatisticsList({ tier, body, query });
    setWindow(answer.window);
    return answer;
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      saveText(csvFileName({ groupBy, window }), await exportStatisticsList({ tier, body, query: sort }));
    } finally {
      setExporting(false);
    }
  };
  const changeScope = (patch: () => void) => {
    patch();
    list.update({ page: undefined });
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('menu.statisticsCustomize')}>
        <StatisticsFilterBar tier={tier} filter={filter} onChange={(f) => changeScope(() => setFilter(f))} />
      </Card>
      <Card size="small" title={t('statistics.listTitle')} extra={<WindowNote window={window} />}>
        <DataTable<StatisticsRow>
          queryKey={statisticsKeys.list(tier, body)}
          fetch={fetch}
          rowKey="key"
          columns={columns}
          filters={
            <Space>
              {t('statistics.groupBy')}
              <Select<Dimension>
                style={{ width: 180 }}
                value={groupBy}
                showSearch
                optionFilterProp="label"
                data-testid="group-by"
                options={DIMENSIONS.map((d) => ({ value: d, label: t(DIMENSION_KEYS[d]) }))}
                onChange={(d) => changeScope(() => setGroupBy(d))}
              />
            </Space>
          }
          toolbar={<Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()} data-testid="export-csv">{t('statistics.exportCsv')}</Button>}
        />
      </Card>
    </Space>
  );
}
