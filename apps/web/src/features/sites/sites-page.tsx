import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { SITE_STATUS_NAMES } from './site-status';
import { SiteStatusTag } from './site-status-tag';
import { SiteUsersModal } from './site-users-modal';
import { TagsEditor } from './tags-editor';
import { siteCalls, siteKeys, type Site } from './queries';

export default function SitesPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [editing, setEditing] = useState<Site>();
  const [sharing, setSharing] = useState<Site>();
  const tags = useQuery({ queryKey: siteKeys.tags, queryFn: siteCalls.tags });
  const products = useQuery({
    queryKey: siteKeys.productOptions,
    queryFn: async () => (await siteCalls.products({ page: 1, pageSize: MAX_PAGE_SIZE })).data.map((p) => ({ value: p.id, label: p.name })),
  });
  if (!can('sites.view')) return <Navigate to="/404" replace />;

  const columns: TableColumnsType<Site> = [
    {
      key: 'name',
      title: t('sites.name'),
      sorter: true,
      render: (_, s) => <Link to={`/user/sitesManagement/sitesSetting/${s.id}/${encodeURIComponent(s.name)}`}>{s.name}</Link>,
    },
    { key: 'status', title: t('sites.status'), sorter: true, render: (_, s) => <SiteStatusTag status={s.status} /> },
    { key: 'cname', title: t('sites.cname'), render: (_, s) => <Typography.Text copyable>{s.cname}</Typography.Text> },
    { key: 'product', title: t('sites.product'), dataIndex: 'productName' },
    { key: 'domainCount', title: t('sites.domainCount'), dataIndex: 'domainCount' },
    {
      key: 'tags',
      title: t('sites.tags'),
      render: (_, s) => (
        <Space size={4} wrap>
          {s.tags.map((tag) => (
            <Tag key={tag}>{tag}</Tag>
          ))}
          {can('sites.edit') ? (
            <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('sites.editTags')} onClick={() => setEditing(s)} />
          ) : null}
        </Space>
      ),
    },
    { key: 'expiredAt', title: t('sites.expiredAt'), render: (_, s) => formatDate(s.expiredAt) || '-' },
    { key: 'updatedAt', title: t('sites.updatedAt'), sorter: true, render: (_, s) => formatDate(s.updatedAt) },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, s) => (
        <Space>
          <Link to={`/user/sitesManagement/sitesSetting/${s.id}/${encodeURIComponent(s.name)}`}>{t('sites.settings')}</Link>
          {can('sites.edit') ? (
            <Button size="small" type="link" onClick={() => setSharing(s)} data-testid={`share-site-${s.id}`}>
              {t('siteOptions.share')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];
  const statusOptions = [
    { value: -1, label: t('sites.statusAll') },
    ...SITE_STATUS_NAMES.map((name, value) => ({ value, label: t(`sites.${name}`) })),
  ];
  return (
    <Card title={t('sites.title')} extra={<Typography.Text type="secondary">{t('sites.clientModeLater')}</Typography.Text>}>
      <DataTable<Site>
        queryKey={siteKeys.sites}
        fetch={siteCalls.sites}
        columns={columns}
        rowKey="id"
        filters={
          <>
            <SelectFilter name="status" placeholder={t('sites.status')} options={statusOptions} />
            <TextFilter name="siteName" placeholder={t('sites.name')} />
            <SelectFilter name="tags" placeholder={t('sites.tags')} options={(tags.data ?? []).map((v) => ({ value: v, label: v }))} />
            <SelectFilter name="productID" placeholder={t('sites.product')} options={products.data ?? []} />
          </>
        }
      />
      {editing ? <TagsEditor site={editing} onClose={() => setEditing(undefined)} /> : null}
      {sharing ? <SiteUsersModal site={sharing} onClose={() => setSharing(undefined)} /> : null}
    </Card>
  );
}
