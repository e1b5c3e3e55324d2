import { Breadcrumb, Layout, Spin, Tag, Typography } from 'antd';
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { FRONTEND_VERSION } from '@edgekeep/contract/constants';
import { LanguageSwitch } from '../../components/language-switch';
import { useBranding, useScreenName } from '../use-branding';
import { useSelf } from '../use-self';
import { useTier } from '../use-tier';
import { AccountMenu } from './account-menu';
import styles from './console-layout.module.css';
import { menuTrail } from './menus';
import { SidebarMenu } from './sidebar-menu';

/** Wide enough for the longest English entry of any area (menu labels do not wrap or cut). */
const SIDER_WIDTH = 248;

/**
 * A signed-in area: branding and menu on the side, the screen's place in the menu, language and account in the
 * header, the screen inside (the route's, or `children` for a path that matches none).
 */
export default function ConsoleLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const tier = useTier();
  const branding = useBranding(tier);
  const self = useSelf(tier);
  const [collapsed, setCollapsed] = useState(false);
  const trail = menuTrail(tier, useLocation().pathname.split('/').filter(Boolean).slice(1)).map((e) => t(`menu.${e.label}`));
  useScreenName(trail.at(-1), branding.title);
  const sideLogo = collapsed ? branding.sidebarSimpleLogo : branding.sidebarLogo;
  return (
    <Layout className={styles.root}>
      <Layout.Sider collapsible collapsed={collapsed} onCollapse={setCollapsed} width={SIDER_WIDTH}>
        <div className={styles.brand}>
          {sideLogo ? <img src={sideLogo} alt={branding.title} className={styles.logo} /> : <span>{collapsed ? branding.title[0] : branding.title}</span>}
        </div>
        <SidebarMenu tier={tier} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className={styles.header}>
          <div className={styles.place}>
            <Tag color="blue">{t(`tier.${tier}`)}</Tag>
            <Breadcrumb items={trail.map((title) => ({ title }))} data-testid="breadcrumb" />
          </div>
          <div className={styles.actions}>
            <LanguageSwitch />
            <AccountMenu tier={tier} />
          </div>
        </Layout.Header>
        <Layout.Content className={styles.content}>
          {self.data ? (
            <Suspense fallback={<Spin />}>
              {children ?? <Outlet />}
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
