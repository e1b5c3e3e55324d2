import { Card, Col, Empty, Row, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBits } from '../../lib/units';
import { WindowNote } from '../statistics/panel';
import type { AnalyticsTier } from '../statistics/queries';
import { numeric } from '../statistics/top-tables';
import { BitsValue } from './attack-tab';
import { BitRateChart } from './charts';
import { useNetwork, type NetworkAnswer, type NetworkFilter } from './queries';

type Item = NetworkAnswer<'ipTops'>['items'][number];
/** A tab of tops: its tops call, its bit-rate call and the body's list that carries the tops' keys. */
export type TopCalls = {
  tops: 'countryTops' | 'ipTops' | 'asnTops';
  rate: 'countryBitRate' | 'ipBitRate' | 'asnBitRate';
  list: 'countries' | 'ips' | 'asns';
};

/** The top five values by bits (spec §9), then the bit rate of those values over the window. */
export function TopTab({ tier, filter, calls, label, testId }: { tier: AnalyticsTier; filter: NetworkFilter; calls: TopCalls; label: (key: string) => string; testId: string }) {
  const { t } = useTranslation();
  const tops = useNetwork({ tier, call: calls.tops, body: filter });
  const keys = tops.data?.items.map((i) => i.key) ?? [];
  const rate = useNetwork({ tier, call: calls.rate, body: { ...filter, [calls.list]: keys }, enabled: Boolean(tops.data && !tops.data.noData) });
  if (tops.data?.noData) return <Empty description={t('l4Attack.empty')} data-testid={`${testId}-empty`} />;
  const columns: TableColumnsType<Item> = [
    { key: 'rank', title: '#', width: 40, render: (_, __, i) => i + 1 },
    { key: 'key', title: t('l4Attack.column.key'), render: (_, r) => label(r.key) },
    { key: 'bits', title: t('l4Attack.column.bits'), ...numeric, render: (_, r) => <BitsValue bits={r.bits} testId={`${testId}-bits-${r.key}`} /> },
    { key: 'traffic', title: t('l4Attack.column.traffic'), ...numeric, render: (_, r) => formatBits(r.bits) },
    { key: 'connections', title: t('l4Attack.column.connections'), ...numeric, render: (_, r) => r.connections.toLocaleString('en-US') },
  ];
  return (
    <Row gutter={[12, 12]}>
      <Col span={24}>
        <Table<Item> size="small" rowKey="key" columns={columns} dataSource={tops.data?.items ?? []} loading={!tops.data} pagination={false} data-testid={`${testId}-table`} />
      </Col>
      <Col span={24}>
        <Card size="small" title={t('l4Attack.bitRate')} extra={<WindowNote window={rate.data?.window} />}>
          <BitRateChart
            testId={`${testId}-rate`}
            day={rate.data?.window.reportInterval === 1440}
            lines={(rate.data?.series ?? []).map((s) => ({ name: label(s.key), data: s.data.map((p) => ({ time: p.time, value: p.bitRate })) }))}
          />
        </Card>
      </Col>
    </Row>
  );
}
