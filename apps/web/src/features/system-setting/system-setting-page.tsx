import { Tabs } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SETTING_TABS } from './tabs';

/** The client's system settings, one tab per setting; the open tab is kept in the URL (?tab=). */
export default function SystemSettingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const active = SETTING_TABS.some((tab) => tab.key === params.get('tab')) ? params.get('tab')! : SETTING_TABS[0].key;
  return (
    <Tabs
      activeKey={active}
      onChange={(key) => setParams({ tab: key }, { replace: true })}
      destroyOnHidden
      items={SETTING_TABS.map(({ key, label, component: Panel }) => ({
        key,
        label: <span data-testid={`setting-tab-${key}`}>{t(label as 'settingTabs.email')}</span>,
        children: (
          <Suspense fallback={null}>
            <Panel />
          </Suspense>
        ),
      }))}
    />
  );
}
