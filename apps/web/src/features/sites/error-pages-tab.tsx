import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { errorPageColumns } from '../error-pages/error-page-form';
import { ErrorPageModal } from './error-page-modal';
import { useSiteMutation } from './use-site-mutation';
import { useSiteCan } from './use-site-can';
import { siteCalls, siteKeys, type ErrorPageItem } from './queries';

export function ErrorPagesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useSiteCan()('errorPages.edit');
  const [editing, setEditing] = useState<ErrorPageItem | 'new'>();
  const remove = useSiteMutation({
    fn: (ids: number[]) => siteCalls.removeErrorPages(siteId, ids),
    success: 'removeSuccess',
    refresh: [siteKeys.errorPages(siteId)],
  });
  const columns = errorPageColumns<ErrorPageItem>({ t, editable, onEdit: setEditing, onRemove: (p) => remove.mutate([p.id]) });
  return (
    <>
      <DataTable<ErrorPageItem>
        queryKey={siteKeys.errorPages(siteId)}
        fetch={(query) => siteCalls.errorPages(siteId, query)}
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
