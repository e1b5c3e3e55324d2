import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_FORMATS } from '../../lib/dates';
import { usePickers, type AnalyticsTier } from '../statistics/queries';
import { defaultLogWindow, isLogWindow } from './log-window';
import type { LogFilter } from './queries';

export const CACHE_STATUSES = ['HIT', 'MISS', 'EXPIRED', 'STALE', 'UPDATING', 'REVALIDATED', 'BYPASS'];

export type LogFilterValues = {
  range: [Dayjs, Dayjs];
  siteIDs?: number[];
  domains?: string[];
  remoteIP?: string;
  cacheStatus?: string;
  uri?: string;
  status?: number;
};

export const initialLogValues = (): LogFilterValues => {
  const w = defaultLogWindow(Date.now());
  return { range: [dayjs(w.startTime), dayjs(w.endTime)] };
};

const blank = <T,>(v: T | undefined | null | '' | []) => (v === '' || v === null || (Array.isArray(v) && !v.length) ? undefined : (v ?? undefined));

/** The form's values as the log calls take them (spec §3 Log query). */
export const toLogFilter = (v: LogFilterValues): LogFilter => ({
  startTime: v.range[0].second(0).millisecond(0).toISOString(),
  endTime: v.range[1].second(0).millisecond(0).toISOString(),
  siteIDs: blank(v.siteIDs),
  domains: blank(v.domains),
  remoteIP: blank(v.remoteIP?.trim()),
  cacheStatus: blank(v.cacheStatus),
  uri: blank(v.uri?.trim()),
  status: blank(v.status),
});

/** The fields of a log query: a window of at most a day on five-minute steps, and what the lines must match. */
export function LogFilterFields({ tier, scopeOnly = false }: { tier: AnalyticsTier; scopeOnly?: boolean }) {
  const { t } = useTranslation();
  const pickers = usePickers(tier).data;
  const spanRule = {
    validator: (_: unknown, r?: [Dayjs, Dayjs]) =>
      !r || isLogWindow({ startTime: r[0].toISOString(), endTime: r[1].toISOString() }) ? Promise.resolve() : Promise.reject(new Error(t('logs.maxDay'))),
  };
  return (
    <>
      <Form.Item name="range" label={t('logs.range')} rules={[{ required: true }, spanRule]} extra={t('logs.maxDay')}>
        <DatePicker.RangePicker
          showTime={{ minuteStep: 5, format: 'HH:mm' }}
          format={DATE_FORMATS.minute}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
          data-testid="log-range"
        />
      </Form.Item>
      {scopeOnly ? null : (
        <>
          <Form.Item name="siteIDs" label={t('logs.sites')}>
            <Select mode="multiple" allowClear maxTagCount="responsive" style={{ width: 200 }} options={pickers?.sites} optionFilterProp="label" />
          </Form.Item>
          <Form.Item name="domains" label={t('logs.domains')}>
            <Select mode="multiple" allowClear maxTagCount="responsive" style={{ width: 220 }} options={pickers?.domains} data-testid="log-domains" />
          </Form.Item>
          <Form.Item name="remoteIP" label={t('logs.field.remoteIP')}>
            <Input allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="cacheStatus" label={t('logs.field.cacheStatus')}>
            <Select allowClear style={{ width: 140 }} options={CACHE_STATUSES.map((s) => ({ value: s, label: s }))} />
          </Form.Item>
          <Form.Item name="uri" label={t('logs.field.uri')}>
            <Input allowClear style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="status" label={t('logs.field.status')}>
            <InputNumber min={100} max={999} precision={0} style={{ width: 100 }} />
          </Form.Item>
        </>
      )}
    </>
  );
}
