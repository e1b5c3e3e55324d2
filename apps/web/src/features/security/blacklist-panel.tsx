import { Col, Row } from 'antd';
import type { AnalyticsTier } from '../statistics/queries';
import { useBlacklistReport, type SecurityFilter } from './queries';
import { RefusalChart } from './refusal-chart';
import { SecurityTopTable } from './security-top';

/** The blacklist group: its refusals per bucket (14), refusals per block type (12) and blacklist refusals by country (18). */
export function BlacklistPanel({ tier, filter }: { tier: AnalyticsTier; filter: SecurityFilter }) {
  const report = useBlacklistReport(tier, filter);
  const d = report.data?.data;
  const top = (type: number) => d?.tops.find((x) => x.type === type);
  return (
    <Row gutter={[12, 12]} data-testid="blacklist-panel">
      <Col xs={24}>
        <RefusalChart title={'security.blacklist.series'} points={d?.series.find((s) => s.type === 14)?.points} window={d?.window} testId="blacklist-series" />
      </Col>
      <Col xs={24} xl={12}>
        <SecurityTopTable id="blacklist.12" top={top(12)} window={d?.window} loading={report.isPending} />
      </Col>
      <Col xs={24} xl={12}>
        <SecurityTopTable id="blacklist.18" top={top(18)} window={d?.window} loading={report.isPending} />
      </Col>
    </Row>
  );
}
