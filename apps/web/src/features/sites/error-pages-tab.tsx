import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sitesApi, type ErrorPageItem } from '../../api/sites';
import { DataTable } from '../../components/data-table';
import { errorPageColumns } from '../error-pages/error-page-form';
import { ErrorPageModal } from './error-page-modal';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';
import { useSiteCan } from './use-site-can';

export function ErrorPagesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useSiteCan()('errorPages.edit');
  const [editing, setEditing] = useState<ErrorPageItem | 'new'>();
  const remove = useSiteMutation({
    fn: (ids: number[]) => sitesApi.removeErrorPages(siteId, ids),
    success: 'removeSuccess',
    refresh: [keys.errorPages(siteId)],
  });
  const columns = errorPageColumns<ErrorPageItem>({ t, editable, onEdit: setEditing, onRemove: (p) => remove.mutate([p.id]) });
  return (
    <>
      <DataTable<ErrorPageItem>
        queryKey={keys.errorPages(siteId)}
        fetch={(query) => sitesApi.errorPages(siteId, query)}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('errorPages.add')}
            </Button>
          ) : null
        }
      />
      {editing ? <ErrorPageModal siteId={siteId} page={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}
