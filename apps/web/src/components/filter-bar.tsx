import { Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useListParams } from './list-params';

/** A text filter bound to one URL parameter; it applies on Enter or when cleared. */
export function TextFilter({ name, placeholder }: { name: string; placeholder: string }) {
  const list = useListParams();
  const [value, setValue] = useState(list.filters[name] ?? '');
  useEffect(() => setValue(list.filters[name] ?? ''), [list.filters[name]]);
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
