import { edge } from '@edgekeep/contract';
import { Form, Input, Select, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import type { Rule } from './queries';
import { code, countryColumns, CountriesItems, NumberItem, trimmed, type KindConfig, type T } from './kind-parts';
import { L4_KIND_TABS } from './l4-kinds';

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
  return (
    <>
      <CountriesItems />
      <UrlItem />
      <ActionItem />
    </>
  );
}

export const RULE_KIND_TABS: KindConfig[] = [
  {
    key: 'geo',
    columns: (t) => [
      ...countryColumns(t),
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
  ...L4_KIND_TABS,
];
