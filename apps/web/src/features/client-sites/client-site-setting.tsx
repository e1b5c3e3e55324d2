import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Result, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { accountsApi } from '../../api/accounts';
import { call } from '../../api/client';
import { writeTokens } from '../../api/cookies';
import type { Site } from '../../api/infra-types';
import SiteSettingPage, { SITE_SETTING_BASE } from '../sites/site-setting-page';

const tier = 'client' as const;

/**
 * The user-tier site settings in client mode: the client switches into the site's owner (`client/proxy`, so
 * every change is logged with the client as proxy) and the same screen then works on that user's site.
 */
export default function ClientSiteSetting() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const siteId = Number(useParams().id) || undefined;
  const sites = useQuery({ queryKey: ['metaSites'], queryFn: () => call<{ id: number; name: string }[]>('client/metaSites', { tier }), enabled: siteId === undefined });
  const owner = useQuery({
    queryKey: ['clientSiteOwner', siteId],
    enabled: siteId !== undefined,
    queryFn: async () => {
      const site = await call<Site>(`client/site/${siteId}`, { tier });
      const tokens = await accountsApi.proxy('client', site.userID);
      writeTokens('user', tokens);
      return site.userID;
    },
    staleTime: 60_000,
  });
  if (siteId === undefined) {
    const picker = (
      <Select
        showSearch
        optionFilterProp="label"
        style={{ minWidth: 240 }}
        placeholder={t('sites.pickSite')}
        options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
        onChange={(id: number) => navigate(`${SITE_SETTING_BASE.client}/${id}/${encodeURIComponent(sites.data?.find((s) => s.id === id)?.name ?? '')}`)}
        data-testid="site-picker"
      />
    );
    return (
      <Card title={t('menu.sitesSetting')} extra={picker}>
        <Empty description={t('sites.noSite')} />
      </Card>
    );
  }
  if (owner.isError) return <Result status="warning" title={t('siteActions.cannotOpen')} />;
  if (!owner.data) return <Spin />;
  return <SiteSettingPage key={owner.data} />;
}
