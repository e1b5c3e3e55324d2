import { CloudServerOutlined, DashboardOutlined, SafetyCertificateOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Tier } from '@edgekeep/contract/tiers';
import type { Messages } from '../../i18n/en-us';

export type MenuEntry = {
  path: string;
  label: keyof Messages['menu'];
  icon?: ReactNode;
  children?: MenuEntry[];
  /** The permission key the account must hold to see the entry. */
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
  children: [
    { path: 'systemSetting', label: 'systemSetting', permission: 'system.view' },
    { path: 'dnsSetting', label: 'dnsSetting' },
  ],
};
const licenses: MenuEntry = { path: 'licenses', label: 'licenses', icon: <SafetyCertificateOutlined />, permission: 'licenses.view' };
const offlineLicense: MenuEntry = { path: 'offlineLicense', label: 'offlineLicense', icon: <CloudServerOutlined />, permission: 'licenses.view' };

/** Each area's sidebar: only screens that exist. */
export const MENUS: Record<Tier, MenuEntry[]> = {
  admin: [dashboard, licenses, offlineLicense, userManagement],
  client: [dashboard, systemManagement, userManagement],
  user: [dashboard, userManagement],
};
