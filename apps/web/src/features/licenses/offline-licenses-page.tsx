import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { licenseCalls, licenseKeys, refreshOfflineLicenses as refresh, type License, type LicenseFields } from './queries';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useFormRules } from '../../components/form-rules';
import { ClientFilter } from './client-select';
import { KeyModal } from './key-modal';
import { useLicenseColumns } from './license-columns';
import { LicenseForm } from './license-form';
import { TextFileInput } from './text-file-input';


/** Admin offline licenses: issue one from a client's registration request, edit, unregister, delete. */
export default function OfflineLicensesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const rules = useFormRules();
  const [editing, setEditing] = useState<License | 'new'>();
  const [showing, setShowing] = useState<License>();
  const save = useMutation({
    mutationFn: (v: LicenseFields & { request?: string }) =>
      editing === 'new' ? licenseCalls.issueOffline({ ...v, request: v.request ?? '' }) : licenseCalls.updateOffline({ ...v, id: editing!.id }),
    onSuccess: (l) => {
      toast.success(t(editing === 'new' ? 'licenseMessage.created' : 'licenseMessage.updated'));
      setEditing(undefined);
      if (l.key) setShowing(l);
      void refresh();
    },
  });
  const done = (message: 'licenseMessage.removed' | 'licenseMessage.set') => () => {
    toast.success(t(message));
    void refresh();
  };
  const remove = useMutation({ mutationFn: licenseCalls.removeOffline, onSuccess: done('licenseMessage.removed') });
  const unregister = useMutation({ mutationFn: licenseCalls.unregister, onSuccess: done('licenseMessage.set') });
  const columns = useLicenseColumns();
  if (!can('licenses.view')) return <Navigate to="/404" replace />;
  const edit = can('licenses.edit');
  const confirm = (title: string, onConfirm: () => void, label: string) => (
    <Popconfirm title={title} onConfirm={onConfirm} okText={t('common.yes')} cancelText={t('common.no')}>
      <Button type="link" danger>{label}</Button>
    </Popconfirm>
  );
  const actions = {
    key: 'actions',
    title: t('licenses.actions'),
    fixed: 'right' as const,
    render: (_: unknown, l: License) => (
      <Space size={0} wrap>
        {l.key ? <Button type="link" onClick={() => setShowing(l)}>{t('licenses.key')}</Button> : null}
        {edit ? <Button type="link" onClick={() => setEditing(l)}>{t('licenses.edit')}</Button> : null}
        {edit && l.installationID
          ? confirm(t('offlineLicense.unregisterConfirm', { name: l.name }), () => unregister.mutate([l.id]), t('offlineLicense.unregister'))
          : null}
        {edit ? confirm(t('licenses.removeConfirm', { name: l.name }), () => remove.mutate([l.id]), t('licenses.remove')) : null}
      </Space>
    ),
  };
  const columnsWithInstallation = [
    ...columns.slice(0, 3),
    { key: 'installationID', dataIndex: 'installationID', title: t('offlineLicense.installation') },
    ...columns.slice(3),
    actions,
  ];
  return (
    <Card title={t('menu.offlineLicense')}>
      <DataTable<License>
        queryKey={licenseKeys.offline}
        fetch={licenseCalls.offlines}
        columns={columnsWithInstallation}
        rowKey="id"
        filters={
          <>
            <TextFilter name="name" placeholder={t('licenses.name')} />
            <ClientFilter />
          </>
        }
        toolbar={edit ? <Button type="primary" onClick={() => setEditing('new')}>{t('offlineLicense.issue')}</Button> : null}
      />
      <LicenseForm
        open={!!editing}
        title={t(editing === 'new' ? 'offlineLicense.issue' : 'licenses.edit')}
        license={editing === 'new' ? undefined : editing}
        pending={save.isPending}
        onSubmit={(v) => save.mutate(v)}
        onClose={() => setEditing(undefined)}
        extra={
          editing === 'new' ? (
            <Form.Item name="request" label={t('offlineLicense.request')} extra={t('offlineLicense.requestHint')} rules={[rules.required]}>
              <TextFileInput testId="registration-request" placeholder="EKREQ1." />
            </Form.Item>
          ) : null
        }
      />
      <KeyModal license={showing} onClose={() => setShowing(undefined)} />
    </Card>
  );
}
