import { Layout, Spin, Tag, Typography } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { FRONTEND_VERSION } from '@edgekeep/contract/constants';
import { LanguageSwitch } from '../../components/language-switch';
import { useBranding } from '../use-branding';
import { useSelf } from '../use-self';
import { useTier } from '../use-tier';
import { AccountMenu } from './account-menu';
import styles from './console-layout.module.css';
import { SidebarMenu } from './sidebar-menu';

/** A signed-in area: branding and menu on the side, language and account in the header, the screen inside. */
export default function ConsoleLayout() {
  const { t } = useTranslation();
  const tier = useTier();
  const branding = useBranding(tier);
  const self = useSelf(tier);
  const [collapsed, setCollapsed] = useState(false);
  const sideLogo = collapsed ? branding.sidebarSimpleLogo : branding.sidebarLogo;
  return (
    <Layout className={styles.root}>
      <Layout.Sider collapsible collapsed={collapsed} onCollapse={setCollapsed} width={220}>
        <div className={styles.brand}>
          {sideLogo ? <img src={sideLogo} alt={branding.title} className={styles.logo} /> : <span>{collapsed ? branding.title[0] : branding.title}</span>}
        </div>
        <SidebarMenu tier={tier} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className={styles.header}>
          <Tag color="blue">{t(`tier.${tier}`)}</Tag>
          <div className={styles.actions}>
            <LanguageSwitch />
            <AccountMenu tier={tier} />
          </div>
        </Layout.Header>
        <Layout.Content className={styles.content}>
          {self.data ? (
            <Suspense fallback={<Spin />}>
              <Outlet />
            </Suspense>
          ) : (
            <Spin />
          )}
        </Layout.Content>
        <Layout.Footer className={styles.footer}>
          <Typography.Text type="secondary">
            {branding.copyright} · {FRONTEND_VERSION}
          </Typography.Text>
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}
