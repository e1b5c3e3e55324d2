import { Button, Card, Popconfirm, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { useMetaProducts } from '../products/queries';
import { SITE_SETTING_BASE } from '../sites/site-setting-page';
import { AccountPicker } from './account-picker';
import { clientSiteKeys, clientSites, fetchSites, useSitesChange, type Site } from './queries';
import { SiteActionModal, type SiteAction } from './site-action-modal';
import { SiteActionsMenu } from './site-actions-menu';
import { SiteFormModal, type SiteFormMode } from './site-form-modal';
import { RemoveButton } from '../../components/remove-button';

/** Spec §4: the index is the status number. */
const STATUSES = [
  { name: 'paused', color: 'default' },
  { name: 'normal', color: 'success' },
  { name: 'locked', color: 'error' },
  { name: 'expired', color: 'warning' },
] as const;

export default function SitesPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('sites.edit');
  const list = useListParams();
  const products = useMetaProducts();
  const [open, setOpen] = useState<SiteFormMode>();
  const [action, setAction] = useState<SiteAction>();
  const setStatus = useSitesChange(clientSites.setStatus, () => toast.success(t('infra.updateSuccess')));
  const remove = useSitesChange(clientSites.remove, () => toast.success(t('infra.removeSuccess')));
  const status = (s: number, site: Site) => {
    const entry = STATUSES[s];
    return (
      <>
        <Tag color={entry.color}>{t(`siteStatus.${entry.name}`)}</Tag>
        {site.forceBackup ? <Tag color="orange">{t('siteActions.onBackup')}</Tag> : null}
      </>
    );
  };
  const columns: TableColumnsType<Site> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('infra.name'),
      sorter: true,
      render: (name: string, site) => <Link to={`${SITE_SETTING_BASE.client}/${site.id}/${encodeURIComponent(name)}`}>{name}</Link>,
    },
    { key: 'status', dataIndex: 'status', title: t('clientSites.status'), sorter: true, render: status },
    { key: 'userEmail', dataIndex: 'userEmail', title: t('infra.user') },
    { key: 'productName', dataIndex: 'productName', title: t('infra.product') },
    { key: 'cname', dataIndex: 'cname', title: t('clientSites.cname'), render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    { key: 'tags', dataIndex: 'tags', title: t('clientSites.tags'), render: (tags: string[]) => tags.map((tag) => <Tag key={tag}>{tag}</Tag>) },
    { key: 'domainCount', dataIndex: 'domainCount', title: t('clientSites.domainCount') },
    { key: 'expiredAt', dataIndex: 'expiredAt', title: t('infra.expiredAt'), render: (v: string | null) => formatDate(v, 'date') || t('infra.never') },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('infra.updatedAt'), sorter: true, render: (v: string) => formatDate(v) },
    {
      key: 'actions',
      title: t('infra.actions'),
      fixed: 'right',
      render: (_, site) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ kind: 'rename', site })}>
              {t('clientSites.rename')}
            </Button>
            <Button size="small" onClick={() => setOpen({ kind: 'tags', site })}>
              {t('clientSites.editTags')}
            </Button>
            <SiteActionsMenu ids={[site.id]} site={site} size="small" onOpen={setAction} />
            <RemoveButton name={site.name} description={t('siteActions.removeHint')} onConfirm={() => remove.mutate([site.id])} />
          </Space>
        ) : null,
    },
  ];
  const batch = (selected: React.Key[], clear: () => void) => {
    if (!canEdit) return null;
    const ids = selected.map(Number);
    const none = ids.length === 0;
    const statusButton = (value: number, label: string) => (
      <Button disabled={none} onClick={() => setStatus.mutate({ ids, status: value }, { onSuccess: clear })}>
        {label}
      </Button>
    );
    return (
      <>
        {statusButton(0, t('nodes.pause'))}
        {statusButton(1, t('clientSites.resume'))}
        {statusButton(2, t('clientSites.lock'))}
        <SiteActionsMenu ids={ids} onOpen={setAction} onDone={clear} />
        <Popconfirm title={t('infra.removeSelectedConfirm', { count: ids.length })} disabled={none} onConfirm={() => remove.mutate(ids, { onSuccess: clear })} okText={t('common.confirm')} cancelText={t('infra.cancel')}>
          <Button danger disabled={none}>
            {t('infra.remove')}
          </Button>
        </Popconfirm>
      </>
    );
  };
  const filters = (
    <>
      <SelectFilter
        name="status"
        placeholder={t('clientSites.status')}
        options={[{ value: -1, label: t('infra.all') }, ...STATUSES.map((s, i) => ({ value: i, label: t(`siteStatus.${s.name}`) }))]}
      />
      <TextFilter name="siteName" placeholder={t('infra.searchName')} />
      <TextFilter name="tags" placeholder={t('clientSites.searchTag')} />
      <SelectFilter name="productID" placeholder={t('infra.product')} options={(products.data ?? []).map((p) => ({ value: p.id, label: p.name }))} />
      <AccountPicker
        auth="user"
        placeholder={t('infra.user')}
        value={Number(list.filters.userID) || undefined}
        onChange={(id) => list.update({ userID: id })}
      />
    </>
  );
  return (
    <Card title={t('menu.sitesList')}>
      <DataTable<Site>
        queryKey={clientSiteKeys.all}
        fetch={fetchSites}
        columns={columns}
        rowKey="id"
        filters={filters}
        batch={batch}
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({ kind: 'create' })}>
              {t('infra.create')}
            </Button>
          ) : null
        }
      />
      {open ? <SiteFormModal mode={open} onClose={() => setOpen(undefined)} /> : null}
      {action ? <SiteActionModal action={action} onClose={() => setAction(undefined)} /> : null}
    </Card>
  );
}
