import { Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SitePicker, useSiteChoice } from '../advanced-firewall/site-picker';
import { AnticcPanel } from './anticc-panel';

/** firewall/antiCC: the anti-CC rules of a chosen site, until the firewall screen mounts the panel as a tab. */
export default function AnticcPage() {
  const { t } = useTranslation();
  const choice = useSiteChoice();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('menu.antiCC')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('antiCC.intro')}</Typography.Paragraph>
      <SitePicker choice={choice} />
      {choice.siteId ? <AnticcPanel key={choice.siteId} siteId={choice.siteId} /> : choice.loading ? null : <Empty description={t('advancedFirewall.noSites')} />}
    </Space>
  );
}
