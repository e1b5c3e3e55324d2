import { ApiOutlined, AreaChartOutlined, ClusterOutlined, CloudServerOutlined, DashboardOutlined, FileExclamationOutlined, FireOutlined, GlobalOutlined, LineChartOutlined, LockOutlined, MonitorOutlined, SafetyCertificateOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Tier } from '@edgekeep/contract/tiers';
import type { Messages } from '../../i18n/en-us';
import { apiDocsUrl } from '../../api/url';
import { USERS_PATH, type Feature } from './menu-paths';

export type MenuEntry = {
  path: string;
  label: keyof Messages['menu'];
  icon?: ReactNode;
  /** The permission key the entry needs; an account without it does not see the entry. */
  permission?: string;
  /** A page outside the console, opened in a new tab. */
  href?: string;
  children?: MenuEntry[];
  /** A screen hidden by default, shown when the server turns it on (branding call). */
  feature?: Feature;
};

const dashboard: MenuEntry = { path: 'dashboard', label: 'dashboard', icon: <DashboardOutlined /> };
const userInformation: MenuEntry = { path: 'userInformation', label: 'userInformation' };
const roles: MenuEntry = { path: 'roles', label: 'roles', permission: 'roles.view' };
const logOperation: MenuEntry = { path: 'logOperation', label: 'logOperation', permission: 'auditLogs.view' };
const apiTokenSetting: MenuEntry = { path: 'apiTokenSetting', label: 'apiTokenSetting', permission: 'apiTokens.edit' };
const announcementSetting: MenuEntry = { path: 'announcementSetting', label: 'announcementSetting', permission: 'announcements.edit' };
const customizeLogo: MenuEntry = { path: 'customizeLogo', label: 'customizeLogo', permission: 'branding.edit' };
const apiDoc: MenuEntry = { path: 'apiDoc', label: 'apiDoc', href: apiDocsUrl };

const users = (tier: Tier): MenuEntry => ({ path: USERS_PATH[tier], label: 'users', permission: 'accounts.view' });

const userManagement = (children: MenuEntry[]): MenuEntry => ({ path: 'userManagement', label: 'userManagement', icon: <TeamOutlined />, children });
const systemManagement: MenuEntry = {
  path: 'systemManagement',
  label: 'systemManagement',
  icon: <SettingOutlined />,
  children: [
    { path: 'systemSetting', label: 'systemSetting', permission: 'system.view' },
    { path: 'systemUpgrade', label: 'systemUpgrade', permission: 'system.view' },
    { path: 'dnsSetting', label: 'dnsSetting', permission: 'system.view' },
    { path: 'cname', label: 'cname', permission: 'system.view' },
    { path: 'nginxSetting', label: 'nginxSetting', permission: 'system.view' },
    { path: 'errorSetting', label: 'errorSetting', permission: 'system.view' },
    { path: 'perdefinedSetting', label: 'perdefinedSetting', permission: 'system.view' },
  ],
};
const userSystemManagement: MenuEntry = {
  path: 'systemManagement',
  label: 'systemManagement',
  icon: <SettingOutlined />,
  children: [{ path: 'notifySetting', label: 'notifySetting', permission: 'notify.edit' }],
};
/** Admins have no notify key: every admin sets its own notices. */
const adminSystemManagement: MenuEntry = { ...userSystemManagement, children: [{ path: 'notifySetting', label: 'notifySetting' }] };
const nodeManage: MenuEntry = {
  path: 'nodeManage',
  label: 'nodeManage',
  icon: <ClusterOutlined />,
  children: [
    { path: 'zonesList', label: 'zonesList', permission: 'zones.view' },
    { path: 'nodesList', label: 'nodesList', permission: 'nodes.view' },
    { path: 'vNode', label: 'vNode', permission: 'nodes.view' },
    { path: 'resolutionTitle', label: 'resolutionTitle', permission: 'lines.view' },
    { path: 'productsList', label: 'productsList', permission: 'products.view' },
    { path: 'sitesList', label: 'sitesList', permission: 'sites.view' },
    { path: 'sitesSetting', label: 'sitesSetting', permission: 'sites.view' },
    { path: 'domains', label: 'domains', permission: 'sites.view' },
    { path: 'blockList', label: 'blockList', permission: 'blockList.view' },
    { path: 'autoSSLManagement', label: 'autoSSLManagement', permission: 'autoSSL.view' },
  ],
};

const monitorManagement: MenuEntry = {
  path: 'monitorManagement',
  label: 'monitorManagement',
  icon: <MonitorOutlined />,
  children: [
    { path: 'monitorNodeList', label: 'monitorNodeList', permission: 'monitors.view' },
    { path: 'monitorNodeGroup', label: 'monitorNodeGroup', permission: 'monitors.view' },
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
    { path: 'blockList', label: 'blockList', permission: 'blockList.view' },
  ],
};

const trafficPkgManagement: MenuEntry = {
  path: 'trafficPkgManagement',
  label: 'trafficPkgManagement',
  icon: <LineChartOutlined />,
  permission: 'traffic.view',
  children: [
    { path: 'trafficPkgList', label: 'trafficPkgList', permission: 'traffic.view' },
    { path: 'trafficReport', label: 'trafficReport', permission: 'traffic.view' },
  ],
};

const dataAnalysis = (tier: 'client' | 'user'): MenuEntry => ({
  path: 'dataAnalysis',
  label: 'dataAnalysis',
  icon: <AreaChartOutlined />,
  children: [
    { path: 'statistics', label: 'statistics', permission: 'statistics.view' },
    ...(tier === 'client' ? [{ path: 'statisticsCustomize', label: 'statisticsCustomize', permission: 'statistics.view' } as const] : []),
    { path: 'logger', label: 'logger', permission: 'accessLogs.view' },
    { path: 'logExport', label: 'logExport', permission: 'logs.export' },
    { path: 'l4AttackAnalysis', label: 'l4AttackAnalysis', permission: 'statistics.view', feature: 'l4AttackAnalysis' },
    { path: 'securityAnalysis', label: 'securityAnalysis', permission: 'statistics.view' },
  ],
});

const domains: MenuEntry = { path: 'domains', label: 'domains', icon: <GlobalOutlined />, permission: 'domains.view' };
const l4Ports: MenuEntry = { path: 'l4Ports', label: 'l4Ports', icon: <ApiOutlined />, permission: 'ports.view' };
const certificates: MenuEntry = { path: 'certificates', label: 'certificates', icon: <LockOutlined />, permission: 'certificates.view' };
const errorPages: MenuEntry = { path: 'errorPages', label: 'errorPages', icon: <FileExclamationOutlined />, permission: 'errorPages.view' };

const licenses: MenuEntry = { path: 'licenses', label: 'licenses', icon: <SafetyCertificateOutlined />, permission: 'licenses.view' };
const offlineLicense: MenuEntry = { path: 'offlineLicense', label: 'offlineLicense', icon: <CloudServerOutlined />, permission: 'licenses.view' };

const advancedFirewall: MenuEntry = { path: 'advancedFirewall', label: 'advancedFirewall', icon: <FireOutlined />, permission: 'firewall.view' };
const firewall: MenuEntry = { path: 'firewall', label: 'firewall', icon: <SafetyCertificateOutlined />, permission: 'firewall.view' };

/** Each area's sidebar: only screens that exist. */
export const MENUS: Record<Tier, MenuEntry[]> = {
  admin: [dashboard, licenses, offlineLicense, adminSystemManagement, userManagement([userInformation, users('admin'), roles, logOperation, apiTokenSetting, apiDoc])],
  client: [dashboard, nodeManage, dataAnalysis('client'), trafficPkgManagement, monitorManagement, systemManagement, userManagement([userInformation, users('client'), roles, logOperation, apiTokenSetting, customizeLogo, announcementSetting, apiDoc])],
  user: [dashboard, sitesManagement, domains, l4Ports, certificates, firewall, advancedFirewall, errorPages, dataAnalysis('user'), trafficPkgManagement, userSystemManagement, userManagement([userInformation, users('user'), roles, logOperation, apiTokenSetting, apiDoc])],
};

/** Screens the account menu opens, outside the sidebar; the header names them all the same. */
const ACCOUNT_SCREENS: MenuEntry[] = [{ path: 'changePassword', label: 'changePassword' }];

/** The entries from the menu's top down to the one a path opens (segments below it, as roles/create, keep it). */
export function menuTrail(tier: Tier, segments: string[]): MenuEntry[] {
  const walk = (entries: MenuEntry[], [first, ...rest]: string[]): MenuEntry[] => {
    const entry = entries.find((e) => e.path === first);
    return entry ? [entry, ...walk(entry.children ?? [], rest)] : [];
  };
  return walk([...MENUS[tier], ...ACCOUNT_SCREENS], segments);
}

/** The entries an account may use: entries whose key it lacks go, and so do groups left with no entry. */
export function visibleMenu(entries: MenuEntry[], can: (key: string) => boolean, features: Partial<Record<Feature, boolean>> = {}): MenuEntry[] {
  return entries.flatMap((entry) => {
    if (entry.permission && !can(entry.permission)) return [];
    if (entry.feature && !features[entry.feature]) return [];
    if (!entry.children) return [entry];
    const children = visibleMenu(entry.children, can, features);
    return children.length ? [{ ...entry, children }] : [];
  });
}
