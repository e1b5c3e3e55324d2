import { Card, Empty, Result, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import SiteSettingPage, { SITE_SETTING_BASE } from '../sites/site-setting-page';
import { useMetaSites, useSiteOwner } from './queries';

/**
 * The user-tier site settings in client mode: the client switches into the site's owner (`client/proxy`, so
 * every change is logged with the client as proxy) and the same screen then works on that user's site.
 */
export default function ClientSiteSetting() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const siteId = Number(useParams().id) || undefined;
  const sites = useMetaSites(siteId === undefined);
  const owner = useSiteOwner(siteId);
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
