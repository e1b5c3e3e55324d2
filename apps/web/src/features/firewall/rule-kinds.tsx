import type { TFunction } from 'i18next';
import { edge } from '@edgekeep/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import type { FC } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { currentLanguage } from '../../i18n';
import { firewallApi, type Rule } from './api';

type T = TFunction;
export type KindConfig = {
  key: string;
  plural: string;
  singular: string;
  columns: (t: T) => TableColumnsType<Rule>;
  /** What the remove confirmation names. */
  name: (r: Rule) => string;
  defaults: Record<string, unknown>;
  Fields: FC;
  toBody: (v: Record<string, unknown>) => Record<string, unknown>;
};

const trimmed = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x]));
const code = (v: unknown) => (v ? <Typography.Text code>{String(v)}</Typography.Text> : <Typography.Text type="secondary">*</Typography.Text>);
const countryName = (id: string) => {
  try {
    return new Intl.DisplayNames([currentLanguage().replace('_', '-')], { type: 'region' }).of(id) ?? id;
  } catch {
    return id;
  }
};

function RegexItem({ name, label, required }: { name: string; label: string; required?: boolean }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const regex = {
    validator: (_: unknown, v?: string) => {
      const problem = v ? edge.regexProblem(v) : undefined;
      return problem ? Promise.reject(new Error(t('advancedFirewall.regexRefused', { reason: problem }))) : Promise.resolve();
    },
  };
  return (
    <Form.Item name={name} label={label} rules={required ? [rules.required, regex] : [regex]} extra={required ? undefined : t('firewall.regexAny')}>
      <Input style={{ fontFamily: 'monospace' }} data-testid={`field-${name}`} />
    </Form.Item>
  );
}
function UrlItem() {
  const { t } = useTranslation();
  return <RegexItem name="urlRegex" label={t('antiCC.urlRegex')} />;
}
function NumberItem({ name, label, min, max, extra }: { name: string; label: string; min: number; max: number; extra?: string }) {
  const rules = useFormRules();
  return (
    <Form.Item name={name} label={label} rules={[rules.required]} extra={extra}>
      <InputNumber min={min} max={max} precision={0} style={{ width: 160 }} data-testid={`field-${name}`} />
    </Form.Item>
  );
}
function ActionItem({ name = 'blockType', withBlock }: { name?: string; withBlock?: boolean }) {
  const { t } = useTranslation();
  const options = [
    { value: 'deny', label: t('advancedFirewall.actions.deny') },
    { value: 'drop', label: t('advancedFirewall.actions.drop') },
    ...(withBlock ? [{ value: 'block', label: t('firewall.blockTen') }] : []),
  ];
  return (
    <Form.Item name={name} label={t('firewall.action')}>
      <Select style={{ width: 240 }} options={options} />
    </Form.Item>
  );
}
const actionColumn = (t: T, key = 'blockType') => ({
  key,
  title: t('firewall.action'),
  render: (_: unknown, r: Rule) => <Tag>{r[key] === 'block' ? t('firewall.blockTen') : t(`advancedFirewall.actions.${r[key] as 'deny' | 'drop'}`)}</Tag>,
});
const urlColumn = (t: T) => ({ key: 'urlRegex', title: t('antiCC.urlRegex'), render: (_: unknown, r: Rule) => code(r.urlRegex) });

function GeoFields() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const geoips = useQuery({ queryKey: ['geoips'], queryFn: firewallApi.geoips, staleTime: Infinity });
  const options = (geoips.data ?? []).map((g) => ({ value: g.id, label: `${countryName(g.id)} (${g.id})` }));
  return (
    <>
      <Form.Item name="geoIDs" label={t('firewall.countries')} rules={[rules.required]}>
        <Select mode="multiple" loading={geoips.isLoading} showSearch optionFilterProp="label" options={options} data-testid="field-geoIDs" />
      </Form.Item>
      <Form.Item name="isBlack" label={t('firewall.geoMode')}>
        <Select style={{ width: 320 }} options={[{ value: true, label: t('firewall.geoBlack') }, { value: false, label: t('firewall.geoWhite') }]} />
      </Form.Item>
      <UrlItem />
      <ActionItem />
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
      <NumberItem name="port" label={t('firewall.port')} min={0} max={65535} extra={t('firewall.anyWhenZero')} />
      <Form.Item name="memo" label={t('advancedFirewall.memo')}>
        <Input maxLength={255} />
      </Form.Item>
    </>
  );
}
const l4Ip = (key: string, plural: string, singular: string): KindConfig => ({
  key,
  plural,
  singular,
  columns: (t) => [
    { key: 'ip', title: t('firewall.ip'), render: (_, r) => code(r.ip) },
    { key: 'port', title: t('firewall.port'), render: (_, r) => (r.port ? String(r.port) : t('firewall.anyPort')) },
    { key: 'memo', title: t('advancedFirewall.memo'), dataIndex: 'memo' },
  ],
  name: (r) => String(r.ip),
  defaults: { port: 0, memo: '' },
  Fields: Ip4Fields,
  toBody: trimmed,
});

export const RULE_KIND_TABS: KindConfig[] = [
  {
    key: 'geo',
    plural: 'geos',
    singular: 'geo',
    columns: (t) => [
      { key: 'geoIDs', title: t('firewall.countries'), render: (_, r) => <Space size={4} wrap>{(r.geoIDs as string[]).map((g) => <Tag key={g}>{countryName(g)}</Tag>)}</Space> },
      { key: 'isBlack', title: t('firewall.geoMode'), render: (_, r) => (r.isBlack ? t('firewall.geoBlack') : t('firewall.geoWhite')) },
      urlColumn(t),
      actionColumn(t),
    ],
    name: (r) => (r.geoIDs as string[]).join(', '),
    defaults: { geoIDs: [], isBlack: true, urlRegex: '', blockType: 'deny' },
    Fields: GeoFields,
    toBody: trimmed,
  },
  {
    key: 'userAgent',
    plural: 'userAgents',
    singular: 'userAgent',
    columns: (t) => [{ key: 'userAgentRegex', title: t('firewall.userAgentRegex'), render: (_, r) => code(r.userAgentRegex) }, urlColumn(t), actionColumn(t)],
    name: (r) => String(r.userAgentRegex),
    defaults: { userAgentRegex: '', urlRegex: '', blockType: 'deny' },
    Fields: function UserAgentFields() {
      const { t } = useTranslation();
      return (
        <>
          <RegexItem name="userAgentRegex" label={t('firewall.userAgentRegex')} required />
          <UrlItem />
          <ActionItem />
        </>
      );
    },
    toBody: trimmed,
  },
  {
    key: 'antiHeader',
    plural: 'antiHeaders',
    singular: 'antiHeader',
    columns: (t) => [
      { key: 'header', title: t('firewall.header'), render: (_, r) => code(r.header) },
      { key: 'valueRegex', title: t('firewall.valueRegex'), render: (_, r) => code(r.valueRegex) },
      urlColumn(t),
      actionColumn(t),
    ],
    name: (r) => String(r.header),
    defaults: { header: '', valueRegex: '', urlRegex: '', blockType: 'deny' },
    Fields: function AntiHeaderFields() {
      const { t } = useTranslation();
      const rules = useFormRules();
      const header = { pattern: /^[A-Za-z0-9-]{1,100}$/, message: t('validation.wrongFormat') };
      return (
        <>
          <Form.Item name="header" label={t('firewall.header')} rules={[rules.required, header]}>
            <Input placeholder="X-Forwarded-Host" data-testid="field-header" />
          </Form.Item>
          <RegexItem name="valueRegex" label={t('firewall.valueRegex')} />
          <UrlItem />
          <ActionItem />
        </>
      );
    },
    toBody: trimmed,
  },
  {
    key: 'limitReq',
    plural: 'limitReqs',
    singular: 'limitReq',
    columns: (t) => [
      urlColumn(t),
      { key: 'rate', title: t('firewall.rate'), render: (_, r) => t('firewall.rateText', { rate: r.rate, burst: r.burst }) },
      { key: 'priority', title: t('advancedFirewall.priority'), dataIndex: 'priority' },
      actionColumn(t, 'type'),
    ],
    name: (r) => String(r.urlRegex || '*'),
    defaults: { urlRegex: '', rate: 10, burst: 0, priority: 0, type: 'deny' },
    Fields: function LimitReqFields() {
      const { t } = useTranslation();
      return (
        <>
          <UrlItem />
          <Space size="large" wrap>
            <NumberItem name="rate" label={t('firewall.rate')} min={1} max={100_000} />
            <NumberItem name="burst" label={t('firewall.burst')} min={0} max={100_000} />
            <NumberItem name="priority" label={t('advancedFirewall.priority')} min={0} max={10_000} />
          </Space>
          <ActionItem name="type" withBlock />
        </>
      );
    },
    toBody: trimmed,
  },
  {
    key: 'frequency',
    plural: 'frequencies',
    singular: 'frequency',
    columns: (t) => [
      urlColumn(t),
      { key: 'threshold', title: t('antiCC.threshold'), render: (_, r) => t('antiCC.thresholdText', { times: r.times, seconds: r.seconds }) },
      { key: 'blockSeconds', title: t('firewall.blockSeconds'), dataIndex: 'blockSeconds' },
    ],
    name: (r) => String(r.urlRegex || '*'),
    defaults: { urlRegex: '', seconds: 10, times: 100, blockSeconds: 600 },
    Fields: function FrequencyFields() {
      const { t } = useTranslation();
      return (
        <>
          <UrlItem />
          <Space size="large" wrap>
            <NumberItem name="seconds" label={t('antiCC.seconds')} min={1} max={86_400} />
            <NumberItem name="times" label={t('antiCC.times')} min={1} max={1_000_000} />
            <NumberItem name="blockSeconds" label={t('firewall.blockSeconds')} min={1} max={604_800} />
          </Space>
        </>
      );
    },
    toBody: trimmed,
  },
  {
    key: 'abuseIP',
    plural: 'abuseIPs',
    singular: 'abuseIP',
    columns: (t) => [{ key: 'score', title: t('firewall.score'), render: (_, r) => t('firewall.scoreText', { score: r.score }) }],
    name: (r) => String(r.score),
    defaults: { score: 75 },
    Fields: function AbuseFields() {
      const { t } = useTranslation();
      return (
        <Form.Item name="score" label={t('firewall.score')} extra={t('firewall.scoreHint')}>
          <Select style={{ width: 200 }} options={edge.ABUSE_SCORES.map((s) => ({ value: s, label: t('firewall.scoreText', { score: s }) }))} />
        </Form.Item>
      );
    },
    toBody: trimmed,
  },
  l4Ip('l4Blacklist', 'l4/blacklists', 'l4/blacklist'),
  l4Ip('l4Whitelist', 'l4/whitelists', 'l4/whitelist'),
  {
    key: 'l4LimitConn',
    plural: 'l4/limitConns',
    singular: 'l4/limitConn',
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
