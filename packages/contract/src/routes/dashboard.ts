import * as s from '../schemas/dashboard';
import { envelope } from '../paging';
import { defineRoute } from '../route';

const tag = 'Dashboard';

/** The account's own widget dashboard; the admin's catalogue has no dashboard.edit key, so viewing it lets one arrange it. */
const dashboard = (tier: 'client' | 'admin', edit: string) => ({
  get: defineRoute({ id: `${tier}.dashboard`, method: 'GET', path: `${tier}/dashboard`, tier, permission: 'dashboard.view', tag,
    summary: "The account's widget dashboard: its saved pages, or the default layout until it saves one", response: envelope(s.dashboardAnswer) }),
  put: defineRoute({ id: `${tier}.dashboard.update`, method: 'PUT', path: `${tier}/dashboard`, tier, permission: edit, tag,
    summary: "Store the account's widget dashboard whole (pages of widgets on a 12-column grid; no pages: deleted)",
    body: s.dashboardLayout, response: envelope(s.dashboardAnswer) }),
});

export const dashboardRoutes = { client: dashboard('client', 'dashboard.edit'), admin: dashboard('admin', 'dashboard.view') };
