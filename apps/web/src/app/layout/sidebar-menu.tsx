import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Tier } from '@edgekeep/contract/tiers';
import { useBranding } from '../use-branding';
import { useCan } from '../use-self';
import { MENUS, visibleMenu, type MenuEntry } from './menus';

type Item = Required<MenuProps>['items'][number];

export function SidebarMenu({ tier }: { tier: Tier }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const can = useCan();
  const entries = visibleMenu(MENUS[tier], can, useBranding(tier));
  const links = new Map<string, string>();
  const keys: string[] = [];
  const toItem = (entry: MenuEntry, parent: string): Item => {
    const key = `${parent}/${entry.path}`;
    const label = t(`menu.${entry.label}`);
    if (entry.href) links.set(key, entry.href);
    keys.push(key);
    if (!entry.children) return { key, icon: entry.icon, label };
    return { key, icon: entry.icon, label, children: entry.children.map((c) => toItem(c, key)) };
  };
  const items = entries.map((e) => toItem(e, `/${tier}`));
  const open = entries.filter((e) => e.children && pathname.startsWith(`/${tier}/${e.path}`)).map((e) => `/${tier}/${e.path}`);
  // A screen below a menu entry (roles/create) keeps that entry selected.
  const current = keys.filter((k) => pathname === k || pathname.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={current ? [current] : []}
      defaultOpenKeys={open}
      onClick={({ key }) => {
        const href = links.get(key);
        if (href) window.open(href, '_blank', 'noopener');
        else navigate(key);
      }}
    />
  );
}
