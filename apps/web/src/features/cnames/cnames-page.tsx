import { Button, Card, Popconfirm, Space, Switch, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { dnsKeys, fetchCnames, useCnameMutations, type Cname } from '../dns-setting/queries';
import { RemoveLink } from '../sites/remove-link';
import { CnameFormModal } from './cname-form-modal';

/** systemManagement/cname (spec §3 CNAME list): the CNAME domains the DNS provider serves; enabled = not disabled. */
export default function CnamesPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ cname?: Cname }>();
  const { update, remove } = useCnameMutations();
  const removed = () => toast.success(t('infra.removeSuccess'));
  const columns: TableColumnsType<Cname> = [
    { key: 'domain', dataIndex: 'domain', title: t('cnames.domain'), sorter: true },
    {
      key: 'enabled',
      dataIndex: 'enabled',
      title: t('cnames.enabled'),
      render: (enabled: boolean, c) => (
        <Switch checked={enabled} size="small" aria-label={c.domain} onChange={(v) => update.mutate({ id: c.id, enabled: v }, { onSuccess: () => toast.success(t('infra.updateSuccess')) })} />
      ),
    },
    { key: 'memo', dataIndex: 'memo', title: t('infra.memo') },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('infra.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_: unknown, c: Cname) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => setOpen({ cname: c })}>
            {t('common.edit')}
          </Button>
          {c.enabled ? null : <RemoveLink name={c.domain} onConfirm={() => remove.mutate([c.id], { onSuccess: removed })} />}
        </Space>
      ),
    },
  ];
  return (
    <Card title={t('menu.cname')}>
      <DataTable<Cname>
        queryKey={dnsKeys.cnames}
        fetch={fetchCnames}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="domain" placeholder={t('cnames.searchDomain')} />}
        toolbar={
          <Button type="primary" onClick={() => setOpen({})}>
            {t('cnames.add')}
          </Button>
        }
        batch={(selected, clear) => (
          <Popconfirm
            title={t('infra.removeSelectedConfirm', { count: selected.length })}
            description={t('cnames.disableFirst')}
            disabled={!selected.length}
            onConfirm={() => remove.mutate(selected.map(Number), { onSuccess: () => (removed(), clear()) })}
          >
            <Button danger disabled={!selected.length}>
              {t('common.removeSelected')}
            </Button>
          </Popconfirm>
        )}
      />
      {open ? <CnameFormModal cname={open.cname} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
