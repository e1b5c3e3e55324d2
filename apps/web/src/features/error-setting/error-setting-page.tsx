import { Alert, Button, Card } from 'antd';
import type { edge } from '@edgekeep/contract';
import type { z } from 'zod';
import type { clientErrorPage } from '@edgekeep/contract/schemas/client-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { ErrorPageFormModal, errorPageColumns } from '../error-pages/error-page-form';
import { errorSettingKeys, fetchDefaultErrorPages, useRemoveDefaultErrorPages, useSaveDefaultErrorPage } from './queries';

type Item = z.infer<typeof clientErrorPage>;

function PageModal({ page, onClose }: { page?: Item; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveDefaultErrorPage();
  const onSave = (v: edge.ErrorPage) =>
    save.mutate(
      { ...v, id: page?.id },
      {
        onSuccess: () => {
          toast.success(t(page ? 'infra.updateSuccess' : 'infra.createSuccess'));
          onClose();
        },
      },
    );
  return <ErrorPageFormModal page={page} saving={save.isPending} onSave={onSave} onClose={onClose} testId="default-error" />;
}

/** systemManagement/errorSetting: the client's default error pages, served where a site has none of its own. */
export default function ErrorSettingPage() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [editing, setEditing] = useState<Item | 'new'>();
  const remove = useRemoveDefaultErrorPages();
  const columns = errorPageColumns<Item>({
    t,
    editable,
    onEdit: setEditing,
    onRemove: (p) => remove.mutate([p.id], { onSuccess: () => toast.success(t('infra.removeSuccess')) }),
  });
  return (
    <Card title={t('menu.errorSetting')}>
      <Alert type="info" showIcon message={t('clientSettings.errorSettingHint')} style={{ marginBottom: 16 }} />
      <DataTable<Item>
        queryKey={errorSettingKeys.list}
        fetch={fetchDefaultErrorPages}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="default-error-add">
              {t('errorPages.add')}
            </Button>
          ) : null
        }
      />
      {editing ? <PageModal page={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </Card>
  );
}
