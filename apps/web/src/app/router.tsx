import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { TIERS, tierFromPath, type Tier } from '@edgekeep/contract/tiers';
import { hasSession } from '../api/cookies';
// Only the paths: the menus themselves (and their icons) load with the console's layout.
import { USERS_PATH, type Feature } from './layout/menu-paths';
import { setNavigator } from './navigation';
import { RouteError } from './route-error';
import { screens as s } from './screens';
import { SwitchUser } from './switch-user';
import { useBranding } from './use-branding';
import { useCan } from './use-self';

const page = (node: ReactNode) => <Suspense fallback={null}>{node}</Suspense>;
/** A screen only accounts holding the key may open (see Permitted). */
const guarded = (permission: string, node: ReactNode) => <Permitted permission={permission}>{node}</Permitted>;

/** userManagement opens the users list where the account may see it (spec §2), else its own information. */
function UserManagementHome({ tier }: { tier: Tier }) {
  const can = useCan();
  const to = tier === 'user' && can('accounts.view') ? USERS_PATH[tier] : 'userInformation';
  return <Navigate to={to} replace />;
}

/** A path with /admin/ in it is out of reach outside the admin area. */
function RootGuard() {
  const { pathname } = useLocation();
  if (tierFromPath(pathname) !== 'admin' && pathname.includes('/admin/')) return <Navigate to="/404" replace />;
  return <Outlet />;
}

/** Sign-in screens are skipped when the tier's three cookies exist. */
function SignedOutOnly({ tier }: { tier: Tier }) {
  if (hasSession(tier)) return <Navigate to={`/${tier}/dashboard`} replace />;
  return page(<s.SignInLayout />);
}

function SignedInOnly({ tier }: { tier: Tier }) {
  if (!hasSession(tier)) return <Navigate to={`/${tier}/login`} replace />;
  return page(<s.ConsoleLayout />);
}

/** A path inside an area that matches nothing: the error page, inside the console's frame once signed in. */
function NotFound({ tier }: { tier: Tier }) {
  if (!hasSession(tier)) return page(<s.ErrorPage />);
  return page(<s.ConsoleLayout>{page(<s.ErrorPage />)}</s.ConsoleLayout>);
}

/** A screen the account's permission keys do not allow is not there. */
function Permitted({ permission, children }: { permission: string; children: ReactNode }) {
  if (!useCan()(permission)) return page(<s.ErrorPage />);
  return page(children);
}

/** A screen hidden by default: there only when the server turns it on (the branding call says so). */
function Featured({ feature, tier, children }: { feature: Feature; tier: Tier; children: ReactNode }) {
  const branding = useBranding(tier);
  if (branding[feature] === undefined) return null;
  return branding[feature] ? children : page(<s.ErrorPage />);
}

/** Traffic packages and the traffic report (client and user areas alike). */
function trafficScreens(): RouteObject {
  return {
    path: 'trafficPkgManagement',
    children: [
      { index: true, element: <Navigate to="trafficPkgList" replace /> },
      { path: 'trafficPkgList', element: guarded('traffic.view', <s.TrafficPlans />) },
      { path: 'trafficReport', element: guarded('traffic.view', <s.TrafficReport />) },
    ],
  };
}

/** Statistics, logs and log export (the client area adds custom statistics). */
function dataAnalysisScreens(tier: 'client' | 'user'): RouteObject {
  return {
    path: 'dataAnalysis',
    children: [
      { index: true, element: <Navigate to="statistics" replace /> },
      { path: 'statistics', element: guarded('statistics.view', <s.Statistics />) },
      ...(tier === 'client' ? [{ path: 'statisticsCustomize', element: guarded('statistics.view', <s.StatisticsCustomize />) }] : []),
      { path: 'logger', element: guarded('accessLogs.view', <s.Logger />) },
      { path: 'logExport', element: guarded('logs.export', <s.LogExport />) },
      { path: 'l4AttackAnalysis', element: <Featured feature="l4AttackAnalysis" tier={tier}>{guarded('statistics.view', <s.L4Attack />)}</Featured> },
      { path: 'securityAnalysis', element: guarded('statistics.view', <s.SecurityAnalysis />) },
    ],
  };
}

const clientScreens: RouteObject[] = [
  {
    path: 'nodeManage',
    children: [
      { index: true, element: <Navigate to="zonesList" replace /> },
      { path: 'zonesList', element: <Permitted permission="zones.view"><s.ZonesList /></Permitted> },
      { path: 'nodesList', element: <Permitted permission="nodes.view"><s.NodesList /></Permitted> },
      { path: 'resolutionTitle', element: <Permitted permission="lines.view"><s.ResolutionTitle /></Permitted> },
      { path: 'productsList', element: <Permitted permission="products.view"><s.ProductsList /></Permitted> },
      { path: 'sitesList', element: <Permitted permission="sites.view"><s.SitesList /></Permitted> },
      { path: 'domains', element: <Permitted permission="sites.view"><s.ClientDomains /></Permitted> },
      { path: 'vNode', element: <Permitted permission="nodes.view"><s.VNode /></Permitted> },
      { path: 'sitesSetting/:id?/:name?/:domainName?', element: <Permitted permission="sites.view"><s.ClientSiteSetting /></Permitted> },
      { path: 'blockList', element: <Permitted permission="blockList.view"><s.ClientBlockList /></Permitted> },
      { path: 'autoSSLManagement', element: <Permitted permission="autoSSL.view"><s.AutoSslManagement /></Permitted> },
    ],
  },
  {
    path: 'monitorManagement',
    children: [
      { index: true, element: <Navigate to="monitorNodeList" replace /> },
      { path: 'monitorNodeList', element: <Permitted permission="monitors.view"><s.MonitorNodeList /></Permitted> },
      { path: 'monitorNodeGroup', element: <Permitted permission="monitors.view"><s.MonitorNodeGroup /></Permitted> },
    ],
  },
  {
    path: 'systemManagement',
    children: [
      { index: true, element: <Navigate to="dnsSetting" replace /> },
      { path: 'dnsSetting', element: guarded('system.view', <s.DnsSetting />) },
      { path: 'cname', element: guarded('system.view', <s.Cnames />) },
      { path: 'systemSetting', element: guarded('system.view', <s.SystemSetting />) },
      { path: 'systemUpgrade', element: guarded('system.view', <s.SystemUpgrade />) },
      { path: 'nginxSetting', element: guarded('system.view', <s.NginxSetting />) },
      { path: 'errorSetting', element: guarded('system.view', <s.ErrorSetting />) },
      { path: 'perdefinedSetting', element: guarded('system.view', <s.PerdefinedSetting />) },
    ],
  },
  dataAnalysisScreens('client'),
  trafficScreens(),
];

const userScreens: RouteObject[] = [
  {
    path: 'sitesManagement',
    children: [
      { index: true, element: <Navigate to="sites" replace /> },
      { path: 'sites', element: guarded('sites.view', <s.Sites />) },
      { path: 'sitesSetting/:id?/:name?', element: guarded('sites.view', <s.SiteSetting />) },
      { path: 'blockList', element: guarded('blockList.view', <s.BlockList />) },
    ],
  },
  { path: 'domains', element: guarded('domains.view', <s.Domains />) },
  { path: 'l4Ports', element: guarded('ports.view', <s.L4Ports />) },
  { path: 'certificates', element: guarded('certificates.view', <s.Certificates />) },
  { path: 'errorPages', element: guarded('errorPages.view', <s.ErrorPages />) },
  { path: 'advancedFirewall', element: guarded('firewall.view', <s.AdvancedFirewall />) },
  { path: 'firewall', element: guarded('firewall.view', <s.Firewall />) },
  {
    path: 'systemManagement',
    children: [
      { index: true, element: <Navigate to="notifySetting" replace /> },
      { path: 'notifySetting', element: guarded('notify.edit', <s.NotifySetting />) },
    ],
  },
  dataAnalysisScreens('user'),
  trafficScreens(),
];

const adminScreens: RouteObject[] = [
  { path: 'licenses', element: guarded('licenses.view', <s.Licenses />) },
  { path: 'offlineLicense', element: guarded('licenses.view', <s.OfflineLicenses />) },
  {
    path: 'systemManagement',
    children: [
      { index: true, element: <Navigate to="notifySetting" replace /> },
      { path: 'notifySetting', element: page(<s.AdminNotifySetting />) },
    ],
  },
];

function tierRoutes(tier: Tier): RouteObject {
  return {
    path: tier,
    children: [
      { index: true, element: <Navigate to="dashboard" replace /> },
      {
        path: 'login',
        element: <SignedOutOnly tier={tier} />,
        children: [
          { index: true, element: page(<s.Login />) },
          { path: 'verifyAccount', element: page(<s.VerifyAccount />) },
          { path: 'createPassword', element: page(<s.CreatePassword />) },
        ],
      },
      { path: 'verifyMail', element: page(<s.VerifyMail />) },
      { path: 'switchUser', element: <SwitchUser /> },
      {
        element: <SignedInOnly tier={tier} />,
        children: [
          { path: 'dashboard', element: page(tier === 'admin' ? <s.AdminDashboard /> : <s.Dashboard />) },
          {
            path: 'userManagement',
            children: [
              { index: true, element: <UserManagementHome tier={tier} /> },
              { path: 'userInformation', element: page(<s.UserInformation />) },
              { path: USERS_PATH[tier], element: guarded('accounts.view', <s.Users />) },
              {
                path: 'roles',
                children: [
                  { index: true, element: guarded('roles.view', <s.Roles />) },
                  { path: 'create', element: guarded('roles.edit', <s.RoleForm />) },
                  { path: ':roleId', element: guarded('roles.edit', <s.RoleForm />) },
                ],
              },
              { path: 'logOperation', element: guarded('auditLogs.view', <s.LogOperation />) },
              { path: 'apiTokenSetting', element: guarded('apiTokens.edit', <s.ApiTokens />) },
              ...(tier === 'client' ? [{ path: 'announcementSetting', element: guarded('announcements.edit', <s.AnnouncementSetting />) }] : []),
              ...(tier === 'client' ? [{ path: 'customizeLogo', element: guarded('branding.edit', <s.CustomizeLogo />) }] : []),
            ],
          },
          { path: 'changePassword', element: page(<s.ChangePassword />) },
          ...(tier === 'client' ? clientScreens : []),
          ...(tier === 'user' ? userScreens : []),
          ...(tier === 'admin' ? adminScreens : []),
        ],
      },
      { path: '*', element: <NotFound tier={tier} /> },
    ],
  };
}

export const router = createBrowserRouter([
  {
    element: <RootGuard />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/user/login" replace /> },
      ...TIERS.map(tierRoutes),
      { path: '404', element: page(<s.ErrorPage />) },
      // A path in no area goes to the root.
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);

setNavigator((to) => void router.navigate(to));
