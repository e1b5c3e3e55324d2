import { lazy } from 'react';

/** Every screen is its own chunk, loaded when its route opens. */
export const screens = {
  SignInLayout: lazy(() => import('../features/sign-in/sign-in-layout')),
  Login: lazy(() => import('../features/sign-in/login-page')),
  VerifyAccount: lazy(() => import('../features/sign-in/verify-account-page')),
  CreatePassword: lazy(() => import('../features/sign-in/create-password-page')),
  VerifyMail: lazy(() => import('../features/sign-in/verify-mail-page')),
  ConsoleLayout: lazy(() => import('./layout/console-layout')),
  Dashboard: lazy(() => import('../features/dashboard/dashboard-page')),
  UserInformation: lazy(() => import('../features/account/user-information-page')),
  ChangePassword: lazy(() => import('../features/account/change-password-page')),
  DnsSetting: lazy(() => import('../features/dns-setting/dns-setting-page')),
  ZonesList: lazy(() => import('../features/zones/zones-page')),
  NodesList: lazy(() => import('../features/nodes/nodes-page')),
  ResolutionTitle: lazy(() => import('../features/lines/lines-page')),
  ProductsList: lazy(() => import('../features/products/products-page')),
  SitesList: lazy(() => import('../features/client-sites/sites-page')),
  Sites: lazy(() => import('../features/sites/sites-page')),
  SiteSetting: lazy(() => import('../features/sites/site-setting-page')),
  AdminDashboard: lazy(() => import('../features/licenses/admin-dashboard-page')),
  Licenses: lazy(() => import('../features/licenses/licenses-page')),
  OfflineLicenses: lazy(() => import('../features/licenses/offline-licenses-page')),
  SystemSetting: lazy(() => import('../features/licenses/system-setting-page')),
  ErrorPage: lazy(() => import('../features/errors/error-page')),
};
