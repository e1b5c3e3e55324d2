import { useMutation } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { licenseCalls, licenseKeys, refreshLicenses as refresh, type License, type LicenseFields } from './queries';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { ClientFilter } from './client-select';
import { IssueModal } from './issue-modal';
import { KeyModal } from './key-modal';
import { useLicenseColumns } from './license-columns';
import { LicenseForm } from './license-form';
import { OrdersModal } from './orders-modal';


/** Admin online licenses: list, create, edit, issue to a client, show the key, order records, remove. */
export default function LicensesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [editing, setEditing] = useState<License | 'new'>();
  const [issuing, setIssuing] = useState<License>();
  const [showing, setShowing] = useState<License>();
  const [ordersOf, setOrdersOf] = useState<{ id: number; name: string }>();
  const save = useMutation({
    mutationFn: (v: LicenseFields) => (editing === 'new' ? licenseCalls.create(v) : licenseCalls.update({ ...v, id: editing!.id })),
    onSuccess: () => {
      toast.success(t(editing === 'new' ? 'licenseMessage.created' : 'licenseMessage.updated'));
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: licenseCalls.remove,
    onSuccess: () => {
      toast.success(t('licenseMessage.removed'));
      void refresh();
    },
  });
  const columns = useLicenseColumns();
  if (!can('licenses.view')) return <Navigate to="/404" replace />;
  const edit = can('licenses.edit');
  const actions = {
    key: 'actions',
    title: t('licenses.actions'),
    fixed: 'right' as const,
    render: (_: unknown, l: License) => (
      <Space size={0} wrap>
        {l.key ? <Button type="link" onClick={() => setShowing(l)}>{t('licenses.key')}</Button> : null}
        {edit ? <Button type="link" onClick={() => setIssuing(l)}>{t('licenses.issue')}</Button> : null}
        {edit ? <Button type="link" onClick={() => setEditing(l)}>{t('licenses.edit')}</Button> : null}
        {l.clientID ? (
          <Button type="link" onClick={() => setOrdersOf({ id: l.clientID!, name: l.clientName ?? '' })}>{t('licenses.orders')}</Button>
        ) : null}
        {edit ? (
          <Popconfirm title={t('licenses.removeConfirm', { name: l.name })} onConfirm={() => remove.mutate([l.id])} okText={t('common.yes')} cancelText={t('common.no')}>
            <Button type="link" danger>{t('licenses.remove')}</Button>
          </Popconfirm>
        ) : null}
      </Space>
    ),
  };
  return (
    <Card title={t('menu.licenses')}>
      <DataTable<License>
        queryKey={licenseKeys.list}
        fetch={licenseCalls.list}
        columns={[...columns, actions]}
        rowKey="id"
        filters={
          <>
            <TextFilter name="name" placeholder={t('licenses.name')} />
            <ClientFilter />
          </>
        }
        toolbar={edit ? <Button type="primary" onClick={() => setEditing('new')}>{t('licenses.create')}</Button> : null}
      />
      <LicenseForm
        open={!!editing}
        title={t(editing === 'new' ? 'licenses.create' : 'licenses.edit')}
        license={editing === 'new' ? undefined : editing}
        pending={save.isPending}
        onSubmit={(v) => save.mutate(v)}
        onClose={() => setEditing(undefined)}
      />
      <IssueModal
        license={issuing}
        onClose={() => setIssuing(undefined)}
        onIssued={(l) => {
          setIssuing(undefined);
          setShowing(l);
        }}
      />
      <KeyModal license={showing} onClose={() => setShowing(undefined)} />
      <OrdersModal client={ordersOf} onClose={() => setOrdersOf(undefined)} />
    </Card>
  );
}
