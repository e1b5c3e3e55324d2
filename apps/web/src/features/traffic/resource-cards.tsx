import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/units';
import { useResourceInfo } from './queries';

const LOADING = '---';

/** The user dashboard's resource usage (spec §2): sites, domains, and this and last month's traffic served. */
export function ResourceCards() {
  const { t } = useTranslation();
  const info = useResourceInfo();
  const d = info.data;
  const cards = [
    { key: 'sites', title: t('traffic.siteCount'), value: d ? String(d.siteCount) : LOADING },
    { key: 'domains', title: t('traffic.domainCount'), value: d ? String(d.domainCount) : LOADING },
    { key: 'thisMonth', title: t('traffic.thisMonthTraffic'), value: d ? formatBytes(d.thisMonthTraffic) : LOADING },
    { key: 'lastMonth', title: t('traffic.lastMonthTraffic'), value: d ? formatBytes(d.lastMonthTraffic) : LOADING },
  ];
  return (
    <Row gutter={[16, 16]} data-testid="resource-usage">
      {cards.map((c) => (
        <Col key={c.key} xs={24} sm={12} lg={6}>
          <Card>
            <Statistic title={c.title} value={c.value} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
