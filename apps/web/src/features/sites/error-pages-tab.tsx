import { Button, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sitesApi, type ErrorPageItem } from '../../api/sites';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { ERROR_PAGE_TYPE_LABELS, ErrorPageModal } from './error-page-modal';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';
import { RemoveLink } from './remove-link';

export function ErrorPagesTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('errorPages.edit');
  const [editing, setEditing] = useState<ErrorPageItem | 'new'>();
  const remove = useSiteMutation({
    fn: (ids: number[]) => sitesApi.removeErrorPages(siteId, ids),
    success: 'removeSuccess',
    refresh: [keys.errorPages(siteId)],
  });
  const columns: TableColumnsType<ErrorPageItem> = [
    { key: 'status', title: t('errorPages.status'), dataIndex: 'status' },
    { key: 'type', title: t('errorPages.type'), render: (_, p) => t(`errorPages.${ERROR_PAGE_TYPE_LABELS[p.type]}`) },
    {
      key: 'body',
      title: t('errorPages.body'),
      render: (_, p) => (
        <Typography.Text ellipsis style={{ maxWidth: 420 }} code>
          {p.body}
        </Typography.Text>
      ),
    },
    { key: 'updatedAt', title: t('sites.updatedAt'), render: (_, p) => formatDate(p.updatedAt) },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, p) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(p)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={p.status} onConfirm={() => remove.mutate([p.id])} />
          </Space>
        ) : null,
    },
  ];
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
