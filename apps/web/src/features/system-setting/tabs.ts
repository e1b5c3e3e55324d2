import { lazy, type ComponentType } from 'react';

/**
 * The tabs of the client's system setting screen, in order: a key (kept in the URL), its label's locale key and
 * its lazily loaded panel. A new setting is one more line here.
 */
export type SettingTab = { key: string; label: string; component: ComponentType };

export const SETTING_TABS: SettingTab[] = [
  { key: 'license', label: 'settingTabs.license', component: lazy(() => import('../licenses/system-setting-page')) },
  { key: 'email', label: 'settingTabs.email', component: lazy(() => import('./email-tab')) },
  { key: 'chatBot', label: 'settingTabs.chatBot', component: lazy(() => import('./bot-tab')) },
  { key: 'accountVerify', label: 'settingTabs.accountVerify', component: lazy(() => import('./account-verify-tab')) },
  { key: 'outgoingURL', label: 'settingTabs.outgoingURL', component: lazy(() => import('./outgoing-url-tab')) },
  { key: 'CDNRayLog', label: 'settingTabs.CDNRayLog', component: lazy(() => import('./ray-log-tab')) },
  { key: 'certificateProvider', label: 'settingTabs.certificateProvider', component: lazy(() => import('../auto-ssl/certificate-provider-tab')) },
  { key: 'DBBackup', label: 'settingTabs.dbBackup', component: lazy(() => import('../db-backup/db-backup-tab')) },
  { key: 'restrictGroupCIDRs', label: 'settingTabs.restrictGroupCIDRs', component: lazy(() => import('./restrict-cidrs-tab')) },
  { key: 'status', label: 'settingTabs.status', component: lazy(() => import('./status-tab')) },
];
