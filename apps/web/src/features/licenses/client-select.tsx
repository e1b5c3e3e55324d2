import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { licenseCalls, licenseKeys } from './queries';
import { useListParams } from '../../components/list-params';

const PICKER_SIZE = 50;

type Props = { value?: number; onChange?: (id: number | undefined) => void; style?: React.CSSProperties; testId?: string };

/** A root client from `admin/accounts?auth=client`, searched by name on the server. */
export function ClientSelect({ value, onChange, style, testId }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const clients = useQuery({
    queryKey: licenseKeys.clientPicker(name),
    queryFn: () => licenseCalls.clients({ pageSize: PICKER_SIZE, ...(name ? { name } : {}) }),
  });
  const options = (clients.data?.data ?? []).filter((a) => a.isRoot).map((a) => ({ value: a.id, label: `${a.name} (${a.email})` }));
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setName }}
      allowClear
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={clients.isFetching}
      placeholder={t('licenses.pickClient')}
      style={{ minWidth: 240, ...style }}
      data-testid={testId}
    />
  );
}

/** A client filter bound to the URL's clientID. */
export function ClientFilter() {
  const list = useListParams();
  const value = list.filters.clientID ? Number(list.filters.clientID) : undefined;
  return <ClientSelect value={value} onChange={(id) => list.update({ clientID: id })} testId="client-filter" />;
}
