import { COUNTS_TYPES, OUTCOMES, REPORT_INTERVALS, SITE_TYPES, TIME_INTERVALS, type TimeInterval } from '@edgekeep/contract/schemas/statistics';
import { DatePicker, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '../../lib/dates';
import { usePickers, type AnalyticsTier, type StatisticsFilter } from './queries';
import { INTERVAL_KEYS } from './window-label';

/** Spec §9 preset ranges first, then the relative windows. */
const PRESET_ORDER: TimeInterval[] = ['today', 'yesterday', 'thisMonth', 'lastMonth', ...TIME_INTERVALS.filter((i) => !['today', 'yesterday', 'thisMonth', 'lastMonth', 'custom'].includes(i)), 'custom'];
export const PRESET_KEYS: Record<TimeInterval, ParseKeys> = {
  today: 'statistics.preset.today',
  yesterday: 'statistics.preset.yesterday',
  thisMonth: 'statistics.preset.thisMonth',
  lastMonth: 'statistics.preset.lastMonth',
  oneHour: 'statistics.preset.oneHour',
  threeHours: 'statistics.preset.threeHours',
  sixHours: 'statistics.preset.sixHours',
  twelveHours: 'statistics.preset.twelveHours',
  oneDay: 'statistics.preset.oneDay',
  sevenDays: 'statistics.preset.sevenDays',
  thirtyDays: 'statistics.preset.thirtyDays',
  custom: 'statistics.preset.custom',
};
const OUTCOME_KEYS: Record<(typeof OUTCOMES)[number], ParseKeys> = { all: 'statistics.outcome.all', allowed: 'statistics.outcome.allowed', blocked: 'statistics.outcome.blocked' };
const COUNTS_KEYS: Record<(typeof COUNTS_TYPES)[number], ParseKeys> = { requests: 'statistics.countsType.requests', traffic: 'statistics.countsType.traffic' };
const SITE_TYPE_KEYS: Record<(typeof SITE_TYPES)[number], ParseKeys> = { '7': 'statistics.siteType.l7', '7+4': 'statistics.siteType.l74' };

/** `windowOnly`: the scope and the window, for screens whose interval, outcomes and counts are fixed (the security dashboard). */
type Props = { tier: AnalyticsTier; filter: StatisticsFilter; onChange: (next: StatisticsFilter) => void; extra?: React.ReactNode; windowOnly?: boolean };

/** Spec §3 Statistics filter: scope (zones, sites, site types, domains, domain tags), window, interval, outcomes, counts. */
export function StatisticsFilterBar({ tier, filter, onChange, extra, windowOnly = false }: Props) {
  const { t } = useTranslation();
  const pickers = usePickers(tier).data;
  const set = (patch: Partial<StatisticsFilter>) => onChange({ ...filter, ...patch });
  const multi = (key: keyof StatisticsFilter, placeholder: string, options: { value: string | number; label: string }[] | undefined) => (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      style={{ width: 200 }}
      placeholder={placeholder}
      data-testid={`filter-${key}`}
      value={(filter[key] as (string | number)[] | undefined) ?? []}
      options={options}
      optionFilterProp="label"
      onChange={(v: (string | number)[]) => set({ [key]: v.length ? v : undefined })}
    />
  );
  const range: [Dayjs, Dayjs] | null = filter.startTime && filter.endTime ? [dayjs(String(filter.startTime)), dayjs(String(filter.endTime))] : null;
  return (
    <Space wrap data-testid="statistics-filter">
      {tier === 'client' ? multi('reservedZone', t('statistics.filter.zones'), pickers?.zones) : null}
      {multi('reservedSite', t('statistics.filter.sites'), pickers?.sites)}
      {multi('reservedSiteType', t('statistics.filter.siteTypes'), SITE_TYPES.map((v) => ({ value: v, label: t(SITE_TYPE_KEYS[v]) })))}
      {multi('reservedDomain', t('statistics.filter.domains'), pickers?.domains)}
      {multi('reservedDomainTag', t('statistics.filter.domainTags'), pickers?.tags)}
      <Select
        style={{ width: 150 }}
        data-testid="filter-timeInterval"
        value={filter.timeInterval}
        options={PRESET_ORDER.map((v) => ({ value: v, label: t(PRESET_KEYS[v]) }))}
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
      {windowOnly ? null : (
        <>
          <Select
            style={{ width: 130 }}
            data-testid="filter-reportInterval"
            value={filter.reportInterval}
            options={REPORT_INTERVALS.map((v) => ({ value: v, label: t(INTERVAL_KEYS[v]) }))}
            onChange={(v: (typeof REPORT_INTERVALS)[number]) => set({ reportInterval: v })}
          />
          <Select
            style={{ width: 130 }}
            value={filter.outcomes}
            options={OUTCOMES.map((v) => ({ value: v, label: t(OUTCOME_KEYS[v]) }))}
            onChange={(v: (typeof OUTCOMES)[number]) => set({ outcomes: v })}
          />
          <Radio.Group
            optionType="button"
            value={filter.countsType}
            options={COUNTS_TYPES.map((v) => ({ value: v, label: t(COUNTS_KEYS[v]) }))}
            onChange={(e) => set({ countsType: e.target.value })}
          />
        </>
      )}
      {extra}
    </Space>
  );
}
