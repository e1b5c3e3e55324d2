import { Card, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { AccountPicker } from '../client-sites/account-picker';
import { useMetaSites } from '../client-sites/queries';
import { clientDomainKeys, fetchClientDomains, useClientDomainTags, type ClientDomain } from './queries';

const SITE_STATUSES = ['paused', 'normal', 'locked', 'expired'] as const;

/** Every domain of the client's users' sites, read-only; settings are made in the site's own screens. */
export default function ClientDomainsPage() {
  const { t } = useTranslation();
  const list = useListParams();
  const sites = useMetaSites();
  const tags = useClientDomainTags();
  const columns: TableColumnsType<ClientDomain> = [
    { key: 'name', dataIndex: 'name', title: t('clientDomains.domain'), sorter: true },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('clientDomains.status'),
      render: (v: number) => <Tag color={v === 1 ? 'success' : 'default'}>{t(v === 1 ? 'clientDomains.enabled' : 'clientDomains.disabled')}</Tag>,
    },
    { key: 'protocol', dataIndex: 'protocol', title: t('clientDomains.protocol'), render: (v: string) => v.toUpperCase() },
    { key: 'forceSSL', dataIndex: 'forceSSL', title: t('clientDomains.forceSSL'), render: (v: boolean) => (v ? t('clientDomains.on') : t('clientDomains.off')) },
    {
      key: 'siteName',
      dataIndex: 'siteName',
      title: t('clientDomains.site'),
      sorter: true,
      render: (v: string, d) => (
        <>
          {v} <Tag>{t(`siteStatus.${SITE_STATUSES[d.siteStatus]}`)}</Tag>
        </>
      ),
    },
    { key: 'userEmail', dataIndex: 'userEmail', title: t('infra.user') },
    { key: 'cname', dataIndex: 'cname', title: t('clientSites.cname'), render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    { key: 'tags', dataIndex: 'tags', title: t('clientSites.tags'), render: (v: string[]) => v.map((tag) => <Tag key={tag}>{tag}</Tag>) },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('infra.updatedAt'), sorter: true, render: (v: string) => formatDate(v) },
  ];
  const filters = (
    <>
      <TextFilter name="keywords" placeholder={t('clientDomains.search')} />
      <SelectFilter name="siteID" placeholder={t('clientDomains.site')} options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))} />
      <SelectFilter name="tags" placeholder={t('clientSites.tags')} options={(tags.data ?? []).map((tag) => ({ value: tag, label: tag }))} />
      <SelectFilter
        name="status"
        placeholder={t('clientDomains.status')}
        options={[
          { value: 1, label: t('clientDomains.enabled') },
          { value: 0, label: t('clientDomains.disabled') },
        ]}
      />
      <SelectFilter
        name="forceSSL"
        placeholder={t('clientDomains.forceSSL')}
        options={[
          { value: 'true', label: t('clientDomains.on') },
          { value: 'false', label: t('clientDomains.off') },
        ]}
      />
      <AccountPicker auth="user" placeholder={t('infra.user')} value={Number(list.filters.userID) || undefined} onChange={(id) => list.update({ userID: id })} />
    </>
  );
  return (
    <Card title={t('menu.domains')}>
      <DataTable<ClientDomain> queryKey={clientDomainKeys.all} fetch={fetchClientDomains} columns={columns} rowKey="id" filters={filters} />
    </Card>
  );
}
