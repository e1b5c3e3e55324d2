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
  const visible = (entries: MenuEntry[]) => entries.filter((e) => !e.permission || can(e.permission));
  const toItem = (entry: MenuEntry, parent: string): Item => {
    const key = `${parent}/${entry.path}`;
    const label = t(`menu.${entry.label}`);
    if (!entry.children) return { key, icon: entry.icon, label };
    return { key, icon: entry.icon, label, children: visible(entry.children).map((c) => toItem(c, key)) };
  };
  const items = visible(MENUS[tier]).map((e) => toItem(e, `/${tier}`));
  const open = MENUS[tier].filter((e) => e.children && pathname.startsWith(`/${tier}/${e.path}`)).map((e) => `/${tier}/${e.path}`);
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      defaultOpenKeys={open}
      onClick={({ key }) => navigate(key)}
    />
  );
}
