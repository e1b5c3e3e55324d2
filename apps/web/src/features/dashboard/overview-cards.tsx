import type { statisticsInfo } from '@edgekeep/contract/schemas/statistics';
import { Card, Col, Row, Statistic, Tooltip } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatBytes } from '../../lib/units';
import { WindowNote } from '../statistics/panel';

type Info = z.output<typeof statisticsInfo>;
type CardKey = keyof Info['cards'];

/** Spec §3 Dashboard cards. */
const STATUS_CODES = ['200', '206', '301', '302', '400', '403', '404', '444', '499', '500', '502', '503', '504', '903', '904', '929', '978'];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'HEAD', 'PATCH', 'OPTIONS'];
/** The HTTP versions of the cards and the access lines' names for each. */
const HTTP_VERSIONS: [string, string[]][] = [['1.0', ['HTTP/1.0']], ['1.1', ['HTTP/1.1']], ['2', ['HTTP/2.0', 'HTTP/2']], ['3', ['HTTP/3.0', 'HTTP/3']]];
const TRAFFIC: { key: CardKey; label: ParseKeys }[] = [
  { key: 'totalTraffics', label: 'statistics.card.totalTraffics' },
  { key: 'chinaTraffics', label: 'statistics.card.chinaTraffics' },
  { key: 'nonChinaTraffics', label: 'statistics.card.nonChinaTraffics' },
  { key: 'totalCache', label: 'statistics.card.totalCache' },
];
const REQUESTS: { key: CardKey; label: ParseKeys }[] = [
  { key: 'reqCount', label: 'statistics.card.reqCount' },
  { key: 'chinaReq', label: 'statistics.card.chinaReq' },
  { key: 'nonChinaReq', label: 'statistics.card.nonChinaReq' },
  { key: 'respCount', label: 'statistics.card.respCount' },
];

const count = (n: number | undefined) => (n === undefined ? '---' : n.toLocaleString('en-US'));
const sum = (counts: Record<string, number>, keys: string[]) => keys.reduce((n, k) => n + (counts[k] ?? 0), 0);

/** A group of small cards: one value per key. */
function Group({ title, items, testId }: { title: string; items: { key: string; label: React.ReactNode; value: string }[]; testId: string }) {
  return (
    <Card size="small" title={title} data-testid={testId}>
      <Row gutter={[8, 8]}>
        {items.map((i) => (
          <Col key={i.key} xs={8} md={6} xl={4} data-testid={`${testId}-${i.key}`}>
            <Statistic title={i.label} value={i.value} valueStyle={{ fontSize: 18 }} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/** The overview's cards over the dashboard's window: traffic, requests, status codes, methods, HTTP versions, IP versions. */
export function OverviewCards({ info }: { info: Info | undefined }) {
  const { t } = useTranslation();
  const cards = info?.cards;
  const methods = info?.methods ?? {};
  const big = (list: typeof TRAFFIC, format: (n: number) => string) =>
    list.map((c) => (
      <Col key={c.key} xs={12} md={6}>
        <Card size="small" data-testid={`overview-card-${c.key}`}>
          <Statistic title={t(c.label)} value={cards ? format(cards[c.key]) : '---'} />
          <WindowNote window={info?.window} />
        </Card>
      </Col>
    ));
  const of = (counts: Record<string, number> | undefined, key: string) => count(counts ? (counts[key] ?? 0) : undefined);
  return (
    <Row gutter={[12, 12]} data-testid="overview-cards">
      {big(TRAFFIC, formatBytes)}
      {big(REQUESTS, (n) => n.toLocaleString('en-US'))}
      <Col xs={24}>
        <Group
          title={t('statistics.breakdown.statusCodes')}
          testId="status-cards"
          items={STATUS_CODES.map((code) => ({ key: code, label: code === '444' ? <Tooltip title="DROP">444</Tooltip> : code, value: of(info?.statusCodes, code) }))}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Group
          title={t('statistics.breakdown.methods')}
          testId="method-cards"
          items={[
            ...METHODS.map((m) => ({ key: m.toLowerCase(), label: m, value: of(info?.methods, m) })),
            { key: 'other', label: t('dashboardTabs.otherMethods'), value: count(info ? sum(methods, Object.keys(methods)) - sum(methods, METHODS) : undefined) },
          ]}
        />
      </Col>
      <Col xs={24} xl={6}>
        <Group
          title={t('statistics.breakdown.httpVersions')}
          testId="http-cards"
          items={HTTP_VERSIONS.map(([label, names]) => ({ key: label, label, value: count(info ? sum(info.httpVersions, names) : undefined) }))}
        />
      </Col>
      <Col xs={24} xl={6}>
        <Group
          title={t('statistics.breakdown.ipProtocols')}
          testId="ip-cards"
          items={['ipv4', 'ipv6'].map((v) => ({ key: v, label: v, value: of(info?.ipProtocols, v) }))}
        />
      </Col>
    </Row>
  );
}
