import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { WindowNote } from '../statistics/panel';
import type { StatisticsWindow } from '../statistics/window-label';
import { CARD_LABELS } from './labels';

type Props = { cards: { type: number; value: number }[] | undefined; types: number[]; window: StatisticsWindow | undefined };

/** The security dashboard's cards, in the order of `types`; '---' until the answer comes. */
export function SecurityCards({ cards, types, window }: Props) {
  const { t } = useTranslation();
  const byType = new Map((cards ?? []).map((c) => [c.type, c.value]));
  return (
    <Row gutter={[12, 12]} data-testid="security-cards">
      {types.map((type) => (
        <Col key={type} xs={12} md={8} xl={4} flex="1">
          <Card size="small" data-testid={`security-card-${type}`}>
            <Statistic title={t(CARD_LABELS[type])} value={cards ? (byType.get(type) ?? 0).toLocaleString('en-US') : '---'} />
            <WindowNote window={window} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
