import { Col, Row } from 'antd';
import type { AnalyticsTier } from '../statistics/queries';
import { useWafReport, type SecurityFilter } from './queries';
import { RefusalChart } from './refusal-chart';
import { SecurityTopTable } from './security-top';

/** The advanced firewall and WAF group: refusals per bucket (13), and the top 20 rules (23), domains (24) and source IPs (25). */
export function WafPanel({ tier, filter }: { tier: AnalyticsTier; filter: SecurityFilter }) {
  const report = useWafReport(tier, filter);
  const d = report.data?.data;
  const top = (type: number) => d?.tops.find((x) => x.type === type);
  return (
    <Row gutter={[12, 12]} data-testid="waf-panel">
      <Col xs={24}>
        <RefusalChart title={'security.waf.series'} points={d?.series.find((s) => s.type === 13)?.points} window={d?.window} testId="waf-series" />
      </Col>
      {[23, 24, 25].map((type) => (
        <Col key={type} xs={24} xl={8}>
          <SecurityTopTable id={`waf.${type}`} top={top(type)} window={d?.window} loading={report.isPending} />
        </Col>
      ))}
    </Row>
  );
}
