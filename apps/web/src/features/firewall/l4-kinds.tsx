import { edge } from '@edgekeep/contract';
import { Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import type { Rule } from './queries';
import { code, countryColumns, CountriesItems, NumberItem, trimmed, type KindConfig, type T } from './kind-parts';

const portColumn = (t: T) => ({ key: 'port', title: t('firewall.port'), render: (_: unknown, r: Rule) => (r.port ? String(r.port) : t('firewall.anyPort')) });
const memoColumn = (t: T) => ({ key: 'memo', title: t('advancedFirewall.memo'), dataIndex: 'memo' });
function PortAndMemo() {
  const { t } = useTranslation();
  return (
    <>
      <NumberItem name="port" label={t('firewall.port')} min={0} max={65535} extra={t('firewall.anyWhenZero')} />
      <Form.Item name="memo" label={t('advancedFirewall.memo')}>
        <Input maxLength={255} />
      </Form.Item>
    </>
  );
}

function Ip4Fields() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const ip = { validator: (_: unknown, v?: string) => (!v || edge.ipEntry.safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) };
  return (
    <>
      <Form.Item name="ip" label={t('firewall.ip')} rules={[rules.required, ip]}>
        <Input data-testid="field-ip" />
      </Form.Item>
      <PortAndMemo />
    </>
  );
}
const l4Ip = (key: 'l4Blacklist' | 'l4Whitelist'): KindConfig => ({
  key,
  columns: (t) => [
    { key: 'ip', title: t('firewall.ip'), render: (_, r) => code(r.ip) },
    portColumn(t),
    memoColumn(t),
  ],
  name: (r) => String(r.ip),
  defaults: { port: 0, memo: '' },
  Fields: Ip4Fields,
  toBody: trimmed,
});

/** The layer-4 lists of a site, rendered into its stream servers. */
export const L4_KIND_TABS: KindConfig[] = [
  l4Ip('l4Blacklist'),
  l4Ip('l4Whitelist'),
  {
    key: 'l4Position',
    columns: (t) => [...countryColumns(t), portColumn(t), memoColumn(t)],
    name: (r) => (r.geoIDs as string[]).join(', '),
    defaults: { geoIDs: [], isBlack: true, port: 0, memo: '' },
    Fields: function L4PositionFields() {
      return (
        <>
          <CountriesItems />
          <PortAndMemo />
        </>
      );
    },
    toBody: trimmed,
  },
  {
    key: 'l4LimitConn',
    columns: (t) => [
      { key: 'port', title: t('firewall.port'), dataIndex: 'port' },
      { key: 'max', title: t('firewall.maxConns'), render: (_, r) => t('firewall.connsText', { max: r.max, burst: r.burst }) },
      { key: 'delay', title: t('firewall.delay'), dataIndex: 'delay' },
    ],
    name: (r) => String(r.port),
    defaults: { port: 80, max: 100, burst: 0, delay: 0 },
    Fields: function LimitConnFields() {
      const { t } = useTranslation();
      return (
        <Space size="large" wrap>
          <NumberItem name="port" label={t('firewall.port')} min={1} max={65535} />
          <NumberItem name="max" label={t('firewall.maxConns')} min={1} max={100_000} />
          <NumberItem name="burst" label={t('firewall.burst')} min={0} max={100_000} />
          <NumberItem name="delay" label={t('firewall.delay')} min={0} max={3600} />
        </Space>
      );
    },
    toBody: trimmed,
  },
];
