import { dashboardSchemas as s } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { findDashboard, saveDashboard } from './repo';

/** The caller's own dashboard; the default layout until it saves one (or when a stored one no longer reads). */
export async function getDashboard(deps: AppDeps, principal: Principal) {
  const row = await findDashboard(deps.db, principal.accountId);
  const stored = row ? s.dashboardLayout.safeParse(JSON.parse(row.layout)) : undefined;
  if (!row || !stored?.success) return { ...s.DEFAULT_DASHBOARD, updatedAt: null };
  return { ...stored.data, updatedAt: row.updated_at };
}

export async function putDashboard(deps: AppDeps, principal: Principal, layout: s.DashboardLayout) {
  const updatedAt = await saveDashboard(deps.db, principal.accountId, JSON.stringify(layout));
  return { ...layout, updatedAt };
}
