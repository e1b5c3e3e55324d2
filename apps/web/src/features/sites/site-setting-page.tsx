import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Select, Space, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTier } from '../../app/use-tier';
import { BodySizeTab } from './body-size-tab';
import { CacheTab } from './cache-tab';
import { CacheTasksTab } from './cache-tasks-tab';
import { CompressionTab } from './compression-tab';
import { CertificatesTab } from './certificates-tab';
import { DomainsTab } from './domains-tab';
import { DnsTab } from './dns-tab';
import { ErrorPagesTab } from './error-pages-tab';
import { HstsTab } from './hsts-tab';
import { PortsTab } from './ports-tab';
import { RatesTab } from './rates-tab';
import { SiteStatusTag } from './site-status-tag';
import { moduleTabs } from '../site-modules/module-tabs';
import { useSiteCan } from './use-site-can';
import { siteCalls, siteKeys } from './queries';

/** The client reaches the same screen in client mode, under its own node management path. */
export const SITE_SETTING_BASE = { user: '/user/sitesManagement/sitesSetting', client: '/client/nodeManage/sitesSetting' } as const;

/** One site's settings, a tab per group; without a site in the path it asks for one. */
export default function SiteSettingPage() {
  const { t } = useTranslation();
  const can = useSiteCan();
  const navigate = useNavigate();
  const BASE = SITE_SETTING_BASE[useTier() === 'client' ? 'client' : 'user'];
  const params = useParams();
  const siteId = Number(params.id) || undefined;
  const [search, setSearch] = useSearchParams();
  const sites = useQuery({ queryKey: siteKeys.metaSites, queryFn: siteCalls.metaSites });
  const site = useQuery({ queryKey: siteKeys.site(siteId ?? 0), queryFn: () => siteCalls.site(siteId!), enabled: siteId !== undefined });
  if (!can('sites.view')) return <Navigate to="/404" replace />;

  const picker = (
    <Select
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 240 }}
      placeholder={t('sites.pickSite')}
      value={siteId}
      options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      onChange={(id: number) => navigate(`${BASE}/${id}/${encodeURIComponent(sites.data?.find((s) => s.id === id)?.name ?? '')}`)}
      data-testid="site-picker"
    />
  );
  if (!siteId) {
    return (
      <Card title={t('menu.sitesSetting')} extra={picker}>
        <Empty description={t('sites.noSite')} />
      </Card>
    );
  }
  const tabs = [
    can('domains.view') && { key: 'domains', label: t('sites.tabDomains'), children: <DomainsTab siteId={siteId} /> },
    can('certificates.view') && { key: 'certificates', label: t('sites.tabCertificates'), children: <CertificatesTab siteId={siteId} /> },
    { key: 'cache', label: t('sites.tabCache'), children: <CacheTab siteId={siteId} /> },
    { key: 'cacheTasks', label: t('siteOptions.tabCacheTasks'), children: <CacheTasksTab siteId={siteId} /> },
    { key: 'rates', label: t('siteOptions.tabRates'), children: <RatesTab siteId={siteId} /> },
    { key: 'compression', label: t('siteOptions.tabCompression'), children: <CompressionTab siteId={siteId} /> },
    { key: 'hsts', label: 'HSTS', children: <HstsTab siteId={siteId} /> },
    { key: 'bodySize', label: t('siteOptions.tabBodySize'), children: <BodySizeTab siteId={siteId} /> },
    { key: 'ports', label: t('siteOptions.tabPorts'), children: <PortsTab siteId={siteId} /> },
    { key: 'dns', label: t('siteOptions.tabDns'), children: <DnsTab siteId={siteId} /> },
    can('errorPages.view') && { key: 'errorPages', label: t('sites.tabErrorPages'), children: <ErrorPagesTab siteId={siteId} /> },
    ...moduleTabs({ siteId, t }),
  ].filter((tab) => tab !== false);
  const active = tabs.some((tab) => tab.key === search.get('tab')) ? search.get('tab')! : tabs[0]?.key;
  const title = (
    <Space>
      <Typography.Text strong>{site.data?.name ?? params.name}</Typography.Text>
      {site.data ? <SiteStatusTag status={site.data.status} /> : null}
      {site.data ? <Typography.Text type="secondary" copyable>{site.data.cname}</Typography.Text> : null}
    </Space>
  );
  return (
    <Card title={title} extra={picker}>
      <Tabs
        // A tab per group of settings: more than a row holds, so they stand in a column, all in sight.
        tabPosition="left"
        activeKey={active}
        // Each tab has its own list: its paging and filters start afresh.
        onChange={(tab) => setSearch({ tab }, { replace: true })}
        items={tabs}
        destroyOnHidden
      />
    </Card>
  );
}
