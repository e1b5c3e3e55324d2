import { tierFromPath } from '@edgekeep/contract/tiers';
import { hasSession } from '../api/cookies';

/**
 * A console opened on a dashboard starts the dashboard's code (the console's layout and the screen's chunk too) and data (the widget layout and its first page's
 * answers; the user overview's cards and QPS chart) at once, beside the session check and the console's own code,
 * instead of one after the other as each screen mounts: the dashboards' first paint.
 */
export function preloadLanding(pathname: string) {
  const tier = tierFromPath(pathname);
  if (!tier || pathname.replace(/\/$/, '') !== `/${tier}/dashboard` || !hasSession(tier)) return;
  void import('./layout/console-layout');
  void (tier === 'admin' ? import('../features/licenses/admin-dashboard-page') : import('../features/dashboard/dashboard-page'));
  if (tier === 'user') {
    void import('../features/dashboard/dashboard-tabs');
    void import('../features/dashboard/overview-queries').then((m) => m.preloadUserDashboard()).catch(() => undefined);
    return;
  }
  void import('../features/dashboard-widgets/widget-dashboard');
  void import('../features/dashboard-widgets/queries').then((m) => m.preloadDashboard(tier)).catch(() => undefined);
}
