import type { statisticsInfo } from '@edgekeep/contract/schemas/statistics';
import { Col, Empty, Row } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Chart, Panel } from './panel';
import type { StatisticsWindow } from './window-label';

type Info = z.output<typeof statisticsInfo>;
type Part = 'statusCodes' | 'methods' | 'httpVersions' | 'ipProtocols' | 'protocols' | 'blockCauses';

const PARTS: { key: Part; title: ParseKeys }[] = [
  { key: 'statusCodes', title: 'statistics.breakdown.statusCodes' },
  { key: 'methods', title: 'statistics.breakdown.methods' },
  { key: 'httpVersions', title: 'statistics.breakdown.httpVersions' },
  { key: 'ipProtocols', title: 'statistics.breakdown.ipProtocols' },
  { key: 'protocols', title: 'statistics.breakdown.protocols' },
  { key: 'blockCauses', title: 'statistics.breakdown.blockCauses' },
];

const pie = (counts: Record<string, number>) => ({
  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
  series: [{ type: 'pie', radius: ['40%', '70%'], label: { formatter: '{b}' }, data: Object.entries(counts).map(([name, value]) => ({ name: name || '-', value })) }],
});

/** Requests of the window by status code, method, HTTP version, IP version, protocol and block cause. */
export function Breakdowns({ info }: { info: Info | undefined }) {
  const { t } = useTranslation();
  const window: StatisticsWindow | undefined = info?.window;
  return (
    <Row gutter={[12, 12]}>
      {PARTS.map((p) => {
        const counts = info?.[p.key] ?? {};
        return (
          <Col key={p.key} xs={24} md={12} xl={8}>
            <Panel title={t(p.title)} window={window} testId={`breakdown-${p.key}`}>
              {Object.keys(counts).length ? <Chart option={pie(counts)} height={220} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ height: 188 }} />}
            </Panel>
          </Col>
        );
      })}
    </Row>
  );
}
