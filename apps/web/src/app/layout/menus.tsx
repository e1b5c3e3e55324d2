import { ClusterOutlined, CloudServerOutlined, DashboardOutlined, SafetyCertificateOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Tier } from '@edgekeep/contract/tiers';
import type { Messages } from '../../i18n/en-us';

/** `permission`: the key the account needs to see the entry. */
export type MenuEntry = { path: string; label: keyof Messages['menu']; icon?: ReactNode; permission?: string; children?: MenuEntry[] };

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
const nodeManage: MenuEntry = {
  path: 'nodeManage',
  label: 'nodeManage',
  icon: <ClusterOutlined />,
  children: [
    { path: 'zonesList', label: 'zonesList', permission: 'zones.view' },
    { path: 'nodesList', label: 'nodesList', permission: 'nodes.view' },
    { path: 'resolutionTitle', label: 'resolutionTitle', permission: 'lines.view' },
    { path: 'productsList', label: 'productsList', permission: 'products.view' },
    { path: 'sitesList', label: 'sitesList', permission: 'sites.view' },
  ],
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

const licenses: MenuEntry = { path: 'licenses', label: 'licenses', icon: <SafetyCertificateOutlined />, permission: 'licenses.view' };
const offlineLicense: MenuEntry = { path: 'offlineLicense', label: 'offlineLicense', icon: <CloudServerOutlined />, permission: 'licenses.view' };

/** Each area's sidebar: only screens that exist. */
export const MENUS: Record<Tier, MenuEntry[]> = {
  admin: [dashboard, licenses, offlineLicense, userManagement],
  client: [dashboard, nodeManage, systemManagement, userManagement],
  user: [dashboard, sitesManagement, userManagement],
};
