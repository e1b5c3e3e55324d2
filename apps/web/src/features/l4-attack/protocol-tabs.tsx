import { Alert, Card, Col, Empty, Row, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { WindowNote } from '../statistics/panel';
import type { AnalyticsTier } from '../statistics/queries';
import { numeric } from '../statistics/top-tables';
import { BitsValue } from './attack-tab';
import { BitRateChart } from './charts';
import { useNetwork, type NetworkAnswer, type NetworkFilter } from './queries';

type Item = NetworkAnswer<'protocolBits'>['items'][number];

/** Bits per IP protocol: TCP and UDP as measured, ICMP and GRE said to be not measured. */
export function ProtocolTab({ tier, filter }: { tier: AnalyticsTier; filter: NetworkFilter }) {
  const { t } = useTranslation();
  const bits = useNetwork({ tier, call: 'protocolBits', body: filter }).data;
  const rate = useNetwork({ tier, call: 'protocolBitRate', body: filter }).data;
  const notMeasured = (text: string | number) => (text === '' ? t('l4Attack.notMeasured') : text);
  const columns: TableColumnsType<Item> = [
    { key: 'protocol', title: t('l4Attack.column.protocol'), dataIndex: 'protocol' },
    { key: 'bits', title: t('l4Attack.column.bits'), ...numeric, render: (_, r) => (r.bits === null ? notMeasured('') : <BitsValue bits={r.bits} testId={`l4-protocol-bits-${r.protocol}`} />) },
    { key: 'connections', title: t('l4Attack.column.connections'), ...numeric, render: (_, r) => notMeasured(r.connections === null ? '' : r.connections.toLocaleString('en-US')) },
  ];
  return (
    <Row gutter={[12, 12]}>
      <Col span={24}>
        <Alert type="info" showIcon message={t('l4Attack.notMeasuredProtocols')} data-testid="l4-protocols-not-measured" />
      </Col>
      <Col span={24}>
        <Table<Item> size="small" rowKey="protocol" columns={columns} dataSource={bits?.items ?? []} loading={!bits} pagination={false} />
      </Col>
      <Col span={24}>
        <Card size="small" title={t('l4Attack.bitRate')} extra={<WindowNote window={rate?.window} />}>
          <BitRateChart
            testId="l4-protocol-rate"
            day={rate?.window.reportInterval === 1440}
            lines={(rate?.series ?? []).map((s) => ({ name: s.key, data: s.data.map((p) => ({ time: p.time, value: p.bitRate })) }))}
          />
        </Card>
      </Col>
    </Row>
  );
}

/** TCP flags: the calls answer measured false; the screen says why there is nothing. */
export function TcpFlagsTab({ tier, filter }: { tier: AnalyticsTier; filter: NetworkFilter }) {
  const { t } = useTranslation();
  const tops = useNetwork({ tier, call: 'tcpFlagTops', body: filter }).data;
  if (!tops) return <span>---</span>;
  return <Empty description={tops.measured ? t('l4Attack.empty') : t('l4Attack.notMeasuredFlags')} data-testid="l4-tcp-flags-empty" />;
}
