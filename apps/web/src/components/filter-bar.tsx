import { DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { DATE_FORMATS } from '../lib/dates';
import { useListParams } from './list-params';

/** A text filter bound to one URL parameter; it applies on Enter or when cleared. */
export function TextFilter({ name, placeholder, scope }: { name: string; placeholder: string; scope?: string }) {
  const list = useListParams(scope);
  const applied = list.filters[name] ?? '';
  const [value, setValue] = useState(applied);
  useEffect(() => setValue(applied), [applied]);
  return (
    <Input.Search
      allowClear
      style={{ width: 220 }}
      placeholder={placeholder}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onSearch={(v) => list.update({ [name]: v.trim() })}
    />
  );
}

/** A choice filter bound to one URL parameter; empty means all. */
export function SelectFilter({ name, placeholder, options }: { name: string; placeholder: string; options: { value: string | number; label: string }[] }) {
  const list = useListParams();
  const raw = list.filters[name];
  const value = raw === undefined ? undefined : (options.find((o) => String(o.value) === raw)?.value ?? raw);
  return (
    <Select
      allowClear
      style={{ minWidth: 160 }}
      placeholder={placeholder}
      value={value}
      options={options}
      onChange={(v) => list.update({ [name]: v as string | number | undefined })}
    />
  );
}

/** A time range bound to two URL parameters (ISO-8601); empty means no bound. */
export function DateRangeFilter({ from, to }: { from: string; to: string }) {
  const list = useListParams();
  const start = list.filters[from] ? dayjs(list.filters[from]) : null;
  const end = list.filters[to] ? dayjs(list.filters[to]) : null;
  return (
    <DatePicker.RangePicker
      showTime
      allowEmpty={[true, true]}
      format={DATE_FORMATS.minute}
      value={[start, end]}
      onChange={(range) => list.update({ [from]: range?.[0]?.toISOString(), [to]: range?.[1]?.toISOString() })}
    />
  );
}
