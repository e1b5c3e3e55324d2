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
  const can = useCan(tier);
  const allowed = (entry: MenuEntry) => !entry.permission || can(entry.permission);
  const toItem = (entry: MenuEntry, parent: string): Item => {
    const key = `${parent}/${entry.path}`;
    const label = t(`menu.${entry.label}`);
    if (!entry.children) return { key, icon: entry.icon, label };
    return { key, icon: entry.icon, label, children: entry.children.filter(allowed).map((c) => toItem(c, key)) };
  };
  const items = MENUS[tier].filter(allowed).map((e) => toItem(e, `/${tier}`));
  const open = MENUS[tier].filter((e) => e.children && pathname.startsWith(`/${tier}/${e.path}`)).map((e) => `/${tier}/${e.path}`);
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
