import type { Dimension, statisticsRow } from '@edgekeep/contract/schemas/statistics';
import { Col, Row, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { countryName } from '../../lib/country-name';
import { formatBytes } from '../../lib/units';
import { DIMENSION_KEYS } from './dimension-labels';
import { Panel } from './panel';
import type { StatisticsWindow } from './window-label';

export type StatisticsRow = z.output<typeof statisticsRow>;
type Top = { dimension: Dimension; items: StatisticsRow[] };

/** Numbers stay on one line, at the right. */
export const numeric = { align: 'right', onCell: () => ({ style: { whiteSpace: 'nowrap' } }) } as const;

/** A value as people read it: a country by its name, an empty value as '-'. */
export const rowLabel = (dimension: Dimension, row: StatisticsRow) =>
  dimension === 'country' && row.key ? `${countryName(row.key)} (${row.key})` : row.label || row.key || '-';

/** The top tables of the window, ranked by the filter's countsType. */
export function TopTables({ tops, window, dimensions }: { tops: Top[] | undefined; window: StatisticsWindow | undefined; dimensions: Dimension[] }) {
  const { t } = useTranslation();
  const byDimension = new Map((tops ?? []).map((top) => [top.dimension, top.items]));
  const columns = (dimension: Dimension): TableColumnsType<StatisticsRow> => [
    { key: 'rank', title: '#', width: 40, render: (_, __, i) => i + 1 },
    { key: 'key', title: t(DIMENSION_KEYS[dimension]), render: (_, r) => <Typography.Text ellipsis={{ tooltip: true }} style={{ maxWidth: 220 }}>{rowLabel(dimension, r)}</Typography.Text> },
    { key: 'reqCount', title: t('statistics.column.requests'), ...numeric, render: (_, r) => r.reqCount.toLocaleString('en-US') },
    { key: 'traffic', title: t('statistics.column.traffic'), ...numeric, render: (_, r) => formatBytes(r.traffic) },
    { key: 'share', title: t('statistics.column.share'), ...numeric, render: (_, r) => `${r.share}%` },
  ];
  return (
    <Row gutter={[12, 12]}>
      {dimensions.map((d) => (
        <Col key={d} xs={24} xl={12}>
          <Panel title={t('statistics.topOf', { name: t(DIMENSION_KEYS[d]) })} window={window} testId={`top-${d}`}>
            <Table<StatisticsRow> size="small" rowKey="key" columns={columns(d)} dataSource={byDimension.get(d) ?? []} loading={!tops} pagination={false} />
          </Panel>
        </Col>
      ))}
    </Row>
  );
}
