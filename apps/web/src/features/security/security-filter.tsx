import { TIME_INTERVALS, type TimeInterval } from '@edgekeep/contract/schemas/statistics';
import { DatePicker, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '../../lib/dates';
import { PRESET_KEYS } from '../statistics/filter-bar';
import { usePickers, type AnalyticsTier } from '../statistics/queries';
import type { SecurityFilter } from './queries';

type Props = { tier: AnalyticsTier; filter: SecurityFilter; onChange: (next: SecurityFilter) => void; extra?: ReactNode };

/** The security dashboard's filter: zones (client), sites, domains and the window; buckets stay at 60 minutes (spec §9). */
export function SecurityFilterBar({ tier, filter, onChange, extra }: Props) {
  const { t } = useTranslation();
  const pickers = usePickers(tier).data;
  const set = (patch: Partial<SecurityFilter>) => onChange({ ...filter, ...patch });
  const multi = (key: 'reservedZone' | 'reservedSite' | 'reservedDomain', placeholder: string, options: { value: string | number; label: string }[] | undefined) => (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      style={{ width: 200 }}
      placeholder={placeholder}
      data-testid={`security-filter-${key}`}
      value={(filter[key] as (string | number)[] | undefined) ?? []}
      options={options}
      optionFilterProp="label"
      onChange={(v: (string | number)[]) => set({ [key]: v.length ? v : undefined })}
    />
  );
  const range: [Dayjs, Dayjs] | null = filter.startTime && filter.endTime ? [dayjs(String(filter.startTime)), dayjs(String(filter.endTime))] : null;
  return (
    <Space wrap data-testid="security-filter">
      {tier === 'client' ? multi('reservedZone', t('statistics.filter.zones'), pickers?.zones) : null}
      {multi('reservedSite', t('statistics.filter.sites'), pickers?.sites)}
      {multi('reservedDomain', t('statistics.filter.domains'), pickers?.domains)}
      <Select
        style={{ width: 150 }}
        data-testid="security-filter-timeInterval"
        value={filter.timeInterval}
        options={TIME_INTERVALS.map((v) => ({ value: v, label: t(PRESET_KEYS[v]) }))}
        onChange={(v: TimeInterval) => set({ timeInterval: v, ...(v === 'custom' ? {} : { startTime: undefined, endTime: undefined }) })}
      />
      {filter.timeInterval === 'custom' ? (
        <DatePicker.RangePicker
          showTime={{ minuteStep: 5, format: 'HH:mm' }}
          format={DATE_FORMATS.minute}
          value={range}
          onChange={(r) => set({ startTime: r?.[0]?.second(0).toISOString(), endTime: r?.[1]?.second(0).toISOString() })}
        />
      ) : null}
      {extra}
    </Space>
  );
}
