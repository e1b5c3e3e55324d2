import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBits } from '../../lib/units';
import type { AnalyticsTier } from '../statistics/queries';
import { WindowNote } from '../statistics/panel';
import { BitRateChart } from './charts';
import { useNetwork, type NetworkFilter } from './queries';

/** Bits as the screen shows them: a unit for reading, and the exact number of bits. */
export function BitsValue({ bits, testId }: { bits: number | undefined; testId: string }) {
  return (
    <span>
      {bits === undefined ? '---' : formatBits(bits)}
      <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }} data-testid={testId}>
        {bits === undefined ? '---' : `${bits.toLocaleString('en-US')} bits`}
      </Typography.Text>
    </span>
  );
}

/** The attack tab: bits passed, dropped and in total, and their average bit rate per bucket. */
export function AttackTab({ tier, filter }: { tier: AnalyticsTier; filter: NetworkFilter }) {
  const { t } = useTranslation();
  const sums = useNetwork({ tier, call: 'sumBits', body: filter }).data;
  const rate = useNetwork({ tier, call: 'avgBitRate', body: filter }).data;
  const cards = [
    { key: 'pass', title: t('l4Attack.passed'), bits: sums?.pass, connections: sums?.passConnections },
    { key: 'drop', title: t('l4Attack.dropped'), bits: sums?.drop, connections: sums?.dropConnections },
    { key: 'total', title: t('l4Attack.total'), bits: sums?.total, connections: sums ? sums.passConnections + sums.dropConnections : undefined },
  ];
  const points = rate?.data ?? [];
  return (
    <Row gutter={[12, 12]}>
      {cards.map((c) => (
        <Col key={c.key} xs={24} md={8}>
          <Card size="small">
            <Statistic title={c.title} valueRender={() => <BitsValue bits={c.bits} testId={`l4-${c.key}-bits`} />} />
            <Typography.Text type="secondary" data-testid={`l4-${c.key}-connections`}>
              {c.connections === undefined ? '---' : t('l4Attack.connections', { count: c.connections })}
            </Typography.Text>
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card size="small" title={t('l4Attack.bitRate')} extra={<WindowNote window={rate?.window} />}>
          <BitRateChart
            testId="l4-attack-rate"
            day={rate?.window.reportInterval === 1440}
            lines={[
              { name: t('l4Attack.passed'), data: points.map((p) => ({ time: p.time, value: p.pass })) },
              { name: t('l4Attack.dropped'), data: points.map((p) => ({ time: p.time, value: p.drop })) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
