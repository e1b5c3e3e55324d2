import type { TFunction } from 'i18next';
import { Form, InputNumber, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import type { FC } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { countryName } from '../../lib/country-name';
import { useGeoips, type Rule, type RuleKind } from './queries';

export type T = TFunction;
export type KindConfig = {
  key: RuleKind;
  columns: (t: T) => TableColumnsType<Rule>;
  /** What the remove confirmation names. */
  name: (r: Rule) => string;
  defaults: Record<string, unknown>;
  Fields: FC;
  toBody: (v: Record<string, unknown>) => Record<string, unknown>;
};

export const trimmed = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x]));
export const code = (v: unknown) => (v ? <Typography.Text code>{String(v)}</Typography.Text> : <Typography.Text type="secondary">*</Typography.Text>);
export function NumberItem({ name, label, min, max, extra }: { name: string; label: string; min: number; max: number; extra?: string }) {
  const rules = useFormRules();
  return (
    <Form.Item name={name} label={label} rules={[rules.required]} extra={extra}>
      <InputNumber min={min} max={max} precision={0} style={{ width: 160 }} data-testid={`field-${name}`} />
    </Form.Item>
  );
}

/** The countries of a region rule and whether they are refused or the only ones let in. */
export function CountriesItems() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const geoips = useGeoips();
  const options = (geoips.data ?? []).map((g) => ({ value: g.id, label: `${countryName(g.id)} (${g.id})` }));
  return (
    <>
      <Form.Item name="geoIDs" label={t('firewall.countries')} rules={[rules.required]}>
        <Select mode="multiple" loading={geoips.isLoading} showSearch optionFilterProp="label" options={options} data-testid="field-geoIDs" />
      </Form.Item>
      <Form.Item name="isBlack" label={t('firewall.geoMode')}>
        <Select style={{ width: 320 }} options={[{ value: true, label: t('firewall.geoBlack') }, { value: false, label: t('firewall.geoWhite') }]} />
      </Form.Item>
    </>
  );
}
export const countryColumns = (t: T): TableColumnsType<Rule> => [
  { key: 'geoIDs', title: t('firewall.countries'), render: (_, r) => <Space size={4} wrap>{(r.geoIDs as string[]).map((g) => <Tag key={g}>{countryName(g)}</Tag>)}</Space> },
  { key: 'isBlack', title: t('firewall.geoMode'), render: (_, r) => (r.isBlack ? t('firewall.geoBlack') : t('firewall.geoWhite')) },
];
