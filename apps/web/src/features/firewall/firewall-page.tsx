import { Card, Empty, Space, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AnticcPanel } from '../anticc/anticc-panel';
import { useSitePicker } from '../sites/site-picker';
import { IpListTab } from './ip-list-tab';
import { RuleTab } from './rule-tab';
import { RULE_KIND_TABS } from './rule-kinds';
import { SettingsBar } from './settings-bar';

/** Firewall (user menu): a site's lists, one tab each, with the advanced switch and the counts on top. */
export default function FirewallPage() {
  const { t } = useTranslation();
  const { siteId, picker, empty } = useSitePicker();
  return (
    <Card title={t('menu.firewall')} extra={picker}>
      {siteId ? <SiteFirewall key={siteId} siteId={siteId} /> : empty ? <Empty description={t('advancedFirewall.noSites')} /> : null}
    </Card>
  );
}

function SiteFirewall({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') ?? 'blacklist';
  const items = [
    { key: 'blacklist', label: t('firewall.tabs.blacklist'), children: <IpListTab siteId={siteId} list="blacklist" /> },
    { key: 'whitelist', label: t('firewall.tabs.whitelist'), children: <IpListTab siteId={siteId} list="whitelist" /> },
    ...RULE_KIND_TABS.map((kind) => ({ key: kind.key, label: t(`firewall.tabs.${kind.key as 'geo'}`), children: <RuleTab siteId={siteId} kind={kind} /> })),
    {
      key: 'antiCC',
      label: t('menu.antiCC'),
      children: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('antiCC.intro')}</Typography.Paragraph>
          <AnticcPanel siteId={siteId} />
        </Space>
      ),
    },
  ];
  return (
    <>
      <SettingsBar siteId={siteId} />
      <Tabs
        activeKey={tab}
        tabPosition="left"
        style={{ marginTop: 16 }}
        destroyInactiveTabPane
        onChange={(key) => setSearch(new URLSearchParams({ site: String(siteId), tab: key }), { replace: true })}
        items={items}
      />
    </>
  );
}
