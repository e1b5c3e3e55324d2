import { Select } from 'antd';
import { useState } from 'react';
import { useAccountSearch } from './queries';

type Props = {
  auth: 'user' | 'client';
  placeholder?: string;
  id?: string;
  style?: React.CSSProperties;
} & (
  | { multiple?: false; value?: number; onChange?: (id: number | undefined) => void }
  /** Several accounts. */
  | { multiple: true; value?: number[]; onChange?: (ids: number[]) => void }
);

/** An account of the client, searched by name or e-mail on the server. */
export function AccountPicker({ auth, value, onChange, placeholder, id, style, multiple }: Props) {
  const [search, setSearch] = useState('');
  const accounts = useAccountSearch(auth, search);
  const options = (accounts.data ?? []).map((a) => ({ value: a.id, label: a.name ? `${a.email} (${a.name})` : a.email }));
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      style={{ minWidth: 240, ...style }}
      placeholder={placeholder}
      value={value}
      onChange={(v) => (onChange as ((v: unknown) => void) | undefined)?.(v)}
      options={options}
      loading={accounts.isFetching}
    />
  );
}
