import { CloudServerOutlined, DashboardOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Tier } from '@edgekeep/contract/tiers';
import type { Messages } from '../../i18n/en-us';

export type MenuEntry = {
  path: string;
  label: keyof Messages['menu'];
  icon?: ReactNode;
  children?: MenuEntry[];
  /** The permission key the entry needs; without it the entry is hidden. */
  permission?: string;
};

const dashboard: MenuEntry = { path: 'dashboard', label: 'dashboard', icon: <DashboardOutlined /> };
const userManagement: MenuEntry = {
  path: 'userManagement',
  label: 'userManagement',
  icon: <TeamOutlined />,
  children: [{ path: 'userInformation', label: 'userInformation' }],
};
const systemManagement: MenuEntry = {
  path: 'systemManagement',
  label: 'systemManagement',
  icon: <SettingOutlined />,
  children: [{ path: 'dnsSetting', label: 'dnsSetting' }],
};

const sitesManagement: MenuEntry = {
  path: 'sitesManagement',
  label: 'sitesManagement',
  icon: <CloudServerOutlined />,
  permission: 'sites.view',
  children: [
    { path: 'sites', label: 'sites', permission: 'sites.view' },
    { path: 'sitesSetting', label: 'sitesSetting', permission: 'sites.view' },
  ],
};

/** Each area's sidebar: only screens that exist. */
export const MENUS: Record<Tier, MenuEntry[]> = {
  admin: [dashboard, userManagement],
  client: [dashboard, systemManagement, userManagement],
  user: [dashboard, sitesManagement, userManagement],
};
