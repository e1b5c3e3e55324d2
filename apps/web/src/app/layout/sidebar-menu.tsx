import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Tier } from '@edgekeep/contract/tiers';
import { useCan } from '../use-self';
import { MENUS, type MenuEntry } from './menus';

type Item = Required<MenuProps>['items'][number];

export function SidebarMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const can = useCan();
  const visible = (entries: MenuEntry[]): MenuEntry[] =>
    entries
      .filter((e) => !e.permission || can(e.permission))
      .map((e) => (e.children ? { ...e, children: visible(e.children) } : e))
      .filter((e) => !e.children || e.children.length > 0);
  const menu = visible(MENUS[tier]);
  const toItem = (entry: MenuEntry, parent: string): Item => {
    const key = `${parent}/${entry.path}`;
    const label = t(`menu.${entry.label}`);
    if (!entry.children) return { key, icon: entry.icon, label };
    return { key, icon: entry.icon, label, children: visible(entry.children).map((c) => toItem(c, key)) };
  };
  const items = menu.map((e) => toItem(e, `/${tier}`));
  const open = menu.filter((e) => e.children && pathname.startsWith(`/${tier}/${e.path}`)).map((e) => `/${tier}/${e.path}`);
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      // A screen's own path parameters (sitesSetting/:id/:name) still select its entry.
      selectedKeys={[pathname.split('/').slice(0, 4).join('/')]}
      defaultOpenKeys={open}
      onClick={({ key }) => navigate(key)}
    />
  );
}
