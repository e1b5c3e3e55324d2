import { L4_DEFAULTS, L4_OUTCOMES, L4_PROTOCOLS, type L4Protocol } from '@edgekeep/contract/schemas/network';
import { STATISTICS_DEFAULTS, TIME_INTERVALS } from '@edgekeep/contract/schemas/statistics';
import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Radio, Select, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { countryName } from '../../lib/country-name';
import { guessTimezone } from '../../lib/dates';
import { PRESET_KEYS } from '../statistics/filter-bar';
import { analyticsTier, usePickers } from '../statistics/queries';
import { AttackTab } from './attack-tab';
import { ProtocolTab, TcpFlagsTab } from './protocol-tabs';
import { networkKeys, type NetworkFilter } from './queries';
import { TopTab } from './top-tab';

/** Spec §9 L4 defaults: six hours, outcomes all, top 5. */
const initialFilter = (): NetworkFilter => ({
  timeInterval: L4_DEFAULTS.timeInterval,
  reportInterval: STATISTICS_DEFAULTS.reportInterval,
  outcomes: L4_DEFAULTS.outcomes,
  top: L4_DEFAULTS.top,
  timeZone: guessTimezone(),
});
const PRESETS = TIME_INTERVALS.filter((i) => i !== 'custom');

/** Layer-4 attack analysis: what the edges' L4 ports passed and dropped, by data centre, source, ASN and protocol. */
export default function L4AttackPage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const queryClient = useQueryClient();
  const pickers = usePickers(tier).data;
  const [filter, setFilter] = useState(initialFilter);
  const set = (patch: Partial<NetworkFilter>) => setFilter({ ...filter, ...patch });
  const ids = (v: number[]) => (v.length ? v : undefined);
  const country = (key: string) => (key ? `${countryName(key)} (${key})` : t('l4Attack.unknownCountry'));
  const tabs = [
    { key: 'attack', label: t('l4Attack.tab.attack'), children: <AttackTab tier={tier} filter={filter} /> },
    {
      key: 'dataCenter',
      label: t('l4Attack.tab.dataCenter'),
      children: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('l4Attack.colo')}</Typography.Text>
          <TopTab tier={tier} filter={filter} calls={{ tops: 'countryTops', rate: 'countryBitRate', list: 'countries' }} label={country} testId="l4-countries" />
        </Space>
      ),
    },
    { key: 'sourceIps', label: t('l4Attack.tab.sourceIps'), children: <TopTab tier={tier} filter={filter} calls={{ tops: 'ipTops', rate: 'ipBitRate', list: 'ips' }} label={(k) => k} testId="l4-ips" /> },
    {
      key: 'asn',
      label: t('l4Attack.tab.asn'),
      children: <TopTab tier={tier} filter={filter} calls={{ tops: 'asnTops', rate: 'asnBitRate', list: 'asns' }} label={(k) => (k ? `AS${k}` : t('l4Attack.unknownAsn'))} testId="l4-asns" />,
    },
    { key: 'ipProtocol', label: t('l4Attack.tab.ipProtocol'), children: <ProtocolTab tier={tier} filter={filter} /> },
    { key: 'tcpFlags', label: t('l4Attack.tab.tcpFlags'), children: <TcpFlagsTab tier={tier} filter={filter} /> },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="l4-attack-page">
      <Card size="small" title={t('menu.l4AttackAnalysis')}>
        <Space wrap>
          {tier === 'client' ? (
            <Select mode="multiple" allowClear maxTagCount="responsive" style={{ width: 200 }} placeholder={t('l4Attack.filterZones')} options={pickers?.zones} optionFilterProp="label" value={filter.reservedZone ?? []} onChange={(v: number[]) => set({ reservedZone: ids(v) })} />
          ) : null}
          <Select mode="multiple" allowClear maxTagCount="responsive" style={{ width: 200 }} placeholder={t('l4Attack.filterSites')} options={pickers?.sites} optionFilterProp="label" value={filter.reservedSite ?? []} onChange={(v: number[]) => set({ reservedSite: ids(v) })} />
          <Select mode="multiple" allowClear style={{ width: 200 }} placeholder={t('l4Attack.filterProtocols')} options={L4_PROTOCOLS.map((p) => ({ value: p, label: p }))} value={filter.protocols ?? []} onChange={(v: L4Protocol[]) => set({ protocols: v.length ? v : undefined })} />
          <Select style={{ width: 150 }} value={filter.timeInterval} onChange={(timeInterval) => set({ timeInterval })} options={PRESETS.map((p) => ({ value: p, label: t(PRESET_KEYS[p]) }))} data-testid="l4-time" />
          <Radio.Group value={filter.outcomes} onChange={(e) => set({ outcomes: e.target.value })} optionType="button" options={L4_OUTCOMES.map((o) => ({ value: o, label: t(`l4Attack.outcome.${o}`) }))} />
          <Button icon={<ReloadOutlined />} onClick={() => void queryClient.invalidateQueries({ queryKey: networkKeys.all(tier) })}>
            {t('l4Attack.refresh')}
          </Button>
        </Space>
      </Card>
      <Card size="small">
        <Tabs items={tabs} destroyOnHidden />
      </Card>
    </Space>
  );
}
