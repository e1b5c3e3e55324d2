import { tierFromPath } from '@edgekeep/contract/tiers';
import { hasSession } from '../api/cookies';

/**
 * A console opened on a widget dashboard starts the dashboard's code and data (the layout, then its first page's
 * answers) at once, beside the session check and the console's own code, instead of one after the other as each
 * screen mounts: the dashboards' first paint.
 */
export function preloadLanding(pathname: string) {
  const tier = tierFromPath(pathname);
  if ((tier !== 'client' && tier !== 'admin') || pathname.replace(/\/$/, '') !== `/${tier}/dashboard` || !hasSession(tier)) return;
  void import('../features/dashboard-widgets/widget-dashboard');
  void import('../features/dashboard-widgets/queries').then((m) => m.preloadDashboard(tier)).catch(() => undefined);
}
