import type { statisticsCards } from '@edgekeep/contract/schemas/statistics';
import { Card, Col, Row, Statistic } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatBits, formatBytes } from '../../lib/units';
import { WindowNote } from './panel';
import type { StatisticsWindow } from './window-label';

type Cards = z.output<typeof statisticsCards>;
type CardKey = keyof Cards;

const count = (n: number) => n.toLocaleString('en-US');
const CARDS: { key: CardKey; label: ParseKeys; format: (n: number) => string }[] = [
  { key: 'totalTraffics', label: 'statistics.card.totalTraffics', format: formatBytes },
  { key: 'chinaTraffics', label: 'statistics.card.chinaTraffics', format: formatBytes },
  { key: 'nonChinaTraffics', label: 'statistics.card.nonChinaTraffics', format: formatBytes },
  { key: 'totalCache', label: 'statistics.card.totalCache', format: formatBytes },
  { key: 'reqCount', label: 'statistics.card.reqCount', format: count },
  { key: 'chinaReq', label: 'statistics.card.chinaReq', format: count },
  { key: 'nonChinaReq', label: 'statistics.card.nonChinaReq', format: count },
  { key: 'respCount', label: 'statistics.card.respCount', format: count },
  { key: 'blocked', label: 'statistics.card.blocked', format: count },
  { key: 'peakBandwidth', label: 'statistics.card.peakBandwidth', format: (n) => `${formatBits(n)}/s` },
  { key: 'peakQps', label: 'statistics.card.peakQps', format: (n) => n.toFixed(2) },
];

/** The dashboard cards of spec §3 over the window; '---' until the answer comes. */
export function StatisticsCards({ cards, window }: { cards: Cards | undefined; window: StatisticsWindow | undefined }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[12, 12]} data-testid="statistics-cards">
      {CARDS.map((c) => (
        <Col key={c.key} xs={12} md={8} xl={6} xxl={4}>
          <Card size="small" data-testid={`card-${c.key}`}>
            <Statistic title={t(c.label)} value={cards ? c.format(cards[c.key]) : '---'} />
            <WindowNote window={window} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
