import { Card, Empty } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSitePicker } from './site-picker';

/** A user-menu screen over one site at a time: the site picker in the card's corner, that site's list inside. */
export function SiteScreen({ title, children }: { title: string; children: (siteId: number) => ReactNode }) {
  const { t } = useTranslation();
  const { siteId, picker, empty } = useSitePicker();
  return (
    <Card title={title} extra={picker}>
      {siteId ? <div key={siteId}>{children(siteId)}</div> : <Empty description={empty ? t('domainSettings.noSites') : t('sites.noSite')} />}
    </Card>
  );
}
