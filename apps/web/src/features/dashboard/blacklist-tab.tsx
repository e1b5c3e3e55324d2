import { BLOCK_TYPE_CARDS } from '@edgekeep/contract/schemas/security';
import type { statisticsInfo } from '@edgekeep/contract/schemas/statistics';
import { Card, Col, Row, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { BlacklistPanel } from '../security/blacklist-panel';
import { BLOCK_TYPE_LABELS } from '../security/labels';
import { useBlacklistReport, useSecurityTops, type SecurityFilter } from '../security/queries';
import { SecurityTopTable } from '../security/security-top';
import { WindowNote } from '../statistics/panel';

type Info = z.output<typeof statisticsInfo>;
const count = (n: number | undefined) => (n === undefined ? '---' : n.toLocaleString('en-US'));

/** The user dashboard's blacklist tab: refusals inside and outside China, per block type, and the blacklist's tops. */
export function BlacklistTab({ info, filter }: { info: Info | undefined; filter: SecurityFilter }) {
  const { t } = useTranslation();
  const report = useBlacklistReport('user', filter).data?.data;
  const tops = useSecurityTops('user', filter, [14]);
  const byType = report?.tops.find((x) => x.type === 12);
  const ofType = (type: number) => (byType ? (byType.items.find((i) => i.key === String(type))?.count ?? 0) : undefined);
  const small = (key: string, title: string, value: string, window = report?.window) => (
    <Col key={key} xs={12} md={6} xl={3}>
      <Card size="small" data-testid={`blacklist-card-${key}`}>
        <Statistic title={title} value={value} valueStyle={{ fontSize: 20 }} />
        <WindowNote window={window} />
      </Card>
    </Col>
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[12, 12]}>
        {small('chinaCount', t('security.card.chinaCount'), count(info?.cards.chinaCount), info?.window)}
        {small('nonChinaCount', t('security.card.nonChinaCount'), count(info?.cards.nonChinaCount), info?.window)}
      </Row>
      <Row gutter={[12, 12]} data-testid="block-type-cards">
        {BLOCK_TYPE_CARDS.map((type) => small(String(type), t(BLOCK_TYPE_LABELS[type]), count(ofType(type))))}
      </Row>
      <SecurityTopTable id="tops.14" top={tops.data?.data.tops[0]} window={tops.data?.data.window} loading={tops.isPending} />
      <BlacklistPanel tier="user" filter={filter} />
    </Space>
  );
}
