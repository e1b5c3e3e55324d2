import { ReloadOutlined } from '@ant-design/icons';
import { DEFAULT_TYPES } from '@edgekeep/contract/schemas/security';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Row, Segmented, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { CountryMap } from '../statistics/country-map';
import { StatisticsFilterBar } from '../statistics/filter-bar';
import { analyticsTier } from '../statistics/queries';
import { BlacklistPanel } from './blacklist-panel';
import { QpsChart } from './qps-chart';
import { ChinaPanel, type ProvinceCount } from './china-panel';
import { initialSecurityFilter, securityKeys, useAreaTops, useChinaProvinces, useSecurityCards, useSecurityTops } from './queries';
import { SecurityCards } from './security-cards';
import { SecurityTopTable } from './security-top';
import { useQps } from './use-qps';
import { WafPanel } from './waf-panel';

/** Security dashboard: cards, QPS, tops, requests and refusals by country and city, blacklist and WAF. */
export default function SecurityPage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState(initialSecurityFilter);
  const [mapType, setMapType] = useState<11 | 21>(21);
  const cards = useSecurityCards(tier, filter);
  const tops = useSecurityTops(tier, filter);
  const countries = useAreaTops(tier, filter, [11, 21]);
  const cities = useAreaTops(tier, filter, [12, 22]);
  const provinces = useChinaProvinces(tier, filter);
  const scope = useMemo(() => ({ reservedZone: filter.reservedZone, reservedSite: filter.reservedSite, reservedDomain: filter.reservedDomain, timeZone: filter.timeZone }), [filter]);
  const qps = useQps(tier, scope);
  const top = (data: typeof tops.data, type: number) => data?.data.tops.find((x) => x.type === type);
  const mapTop = top(countries.data, mapType);
  const mapRows = mapTop?.items.map((i) => ({ ...i, label: i.key, reqCount: i.count, cacheHits: 0, cacheTraffic: 0, blocked: 0 }));
  // China's map: the provinces' requests or refusals, with Hong Kong and Macau from the countries' top.
  const chinaRows: ProvinceCount[] | undefined =
    provinces.data && mapTop
      ? [
          ...provinces.data.data.tops[0].items.filter((r) => r.key !== '').map((r) => ({ key: r.key, count: mapType === 21 ? r.blocked : r.reqCount })),
          ...mapTop.items.filter((i) => i.key === 'HK' || i.key === 'MO').map((i) => ({ key: i.key, count: i.count })),
        ]
          .filter((r) => r.count > 0)
          .sort((a, b) => b.count - a.count)
      : undefined;
  const refresh = (
    <Button icon={<ReloadOutlined />} onClick={() => void queryClient.invalidateQueries({ queryKey: securityKeys.all(tier) })}>
      {t('statistics.refresh')}
    </Button>
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="security-page">
      <Card size="small" title={t('menu.securityAnalysis')}>
        <StatisticsFilterBar tier={tier} filter={filter} onChange={setFilter} extra={refresh} windowOnly />
      </Card>
      <SecurityCards cards={cards.data?.data.cards} types={DEFAULT_TYPES.cards} window={cards.data?.data.window} />
      <QpsChart points={qps.points} window={qps.window} />
      <Row gutter={[12, 12]}>
        {[14, 19, 20].map((type) => (
          <Col key={type} xs={24} xl={8}>
            <SecurityTopTable id={`tops.${type}`} top={top(tops.data, type)} window={tops.data?.data.window} loading={tops.isPending} />
          </Col>
        ))}
      </Row>
      <Segmented
        data-testid="security-map-type"
        value={mapType}
        onChange={(v) => setMapType(v as 11 | 21)}
        options={[{ value: 21, label: t('security.map.refused') }, { value: 11, label: t('security.map.requests') }]}
      />
      <Row gutter={[12, 12]}>
        <Col xs={24} xxl={12}>
          <CountryMap rows={mapRows} window={countries.data?.data.window} countsType="requests" />
        </Col>
        <Col xs={24} xxl={12}>
          <ChinaPanel rows={chinaRows} window={provinces.data?.data.window} title={`${t('security.map.china')} · ${t(mapType === 21 ? 'security.map.refused' : 'security.map.requests')}`} />
        </Col>
      </Row>
      <Row gutter={[12, 12]}>
        {[22, 12].map((type) => (
          <Col key={type} xs={24} xl={12}>
            <SecurityTopTable id={`areaTops.${type}`} top={top(cities.data, type)} window={cities.data?.data.window} loading={cities.isPending} />
          </Col>
        ))}
      </Row>
      <BlacklistPanel tier={tier} filter={filter} />
      <WafPanel tier={tier} filter={filter} />
    </Space>
  );
}
