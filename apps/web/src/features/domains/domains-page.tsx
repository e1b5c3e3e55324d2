import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { DomainsTab } from '../sites/domains-tab';
import { useSitePicker } from '../sites/site-picker';

/** The user menu's domains screen: every domain of the chosen site, with the same list as the site's domains tab. */
export default function DomainsPage() {
  const { t } = useTranslation();
  const { siteId, picker, empty } = useSitePicker();
  return (
    <Card title={t('menu.domains')} extra={picker}>
      {siteId ? <DomainsTab key={siteId} siteId={siteId} /> : <Empty description={empty ? t('domainSettings.noSites') : t('sites.noSite')} />}
    </Card>
  );
}
