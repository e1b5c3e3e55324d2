import * as s from '../schemas/traffic';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'Traffic';

export const trafficRoutes = {
  plans: defineRoute({ id: 'client.extraTrafficPlans', method: 'GET', path: 'client/extraTrafficPlans', tier: 'client', permission: 'traffic.view', tag,
    summary: "Extra traffic plans of the client's users' sites (userID, productID, productName, year, month)", query: s.extraTrafficPlansQuery, response: paged(s.extraTrafficPlanItem) }),
  createPlan: defineRoute({ id: 'client.extraTrafficPlan.create', method: 'POST', path: 'client/extraTrafficPlan', tier: 'client', permission: 'traffic.edit', tag,
    summary: "Add GB to a site's allowance for one month", body: s.createExtraTrafficPlanBody, response: envelope(s.extraTrafficPlanItem) }),
  updatePlan: defineRoute({ id: 'client.extraTrafficPlan.update', method: 'PUT', path: 'client/extraTrafficPlan', tier: 'client', permission: 'traffic.edit', tag,
    summary: 'Change an extra traffic plan', body: s.updateExtraTrafficPlanBody, response: envelope(s.extraTrafficPlanItem) }),
  removePlans: defineRoute({ id: 'client.extraTrafficPlans.remove', method: 'DELETE', path: 'client/extraTrafficPlans', tier: 'client', permission: 'traffic.edit', tag,
    summary: 'Remove extra traffic plans', body: s.removeExtraTrafficPlansBody, response: done }),
  monthlyUsages: defineRoute({ id: 'client.traffic.monthlyUsages', method: 'GET', path: 'client/traffic/monthlyUsages', tier: 'client', permission: 'traffic.view', tag,
    summary: "Each site's traffic served in a month against its allowance (userID)", query: s.monthlyUsagesQuery, response: paged(s.monthlyUsageItem) }),

  userPlans: defineRoute({ id: 'user.extraTrafficPlans', method: 'GET', path: 'user/extraTrafficPlans', tier: 'user', permission: 'traffic.view', tag,
    summary: "Extra traffic plans of the user's sites (productName)", query: s.userExtraTrafficPlansQuery, response: paged(s.extraTrafficPlanItem) }),
  userMonthlyUsages: defineRoute({ id: 'user.traffic.monthlyUsages', method: 'GET', path: 'user/traffic/monthlyUsages', tier: 'user', permission: 'traffic.view', tag,
    summary: "Each of the user's sites' traffic served in a month against its allowance", query: s.userMonthlyUsagesQuery, response: paged(s.monthlyUsageItem) }),
  resourceInfo: defineRoute({ id: 'user.resourceInfo', method: 'GET', path: 'user/resourceInfo', tier: 'user', permission: 'dashboard.view', tag,
    summary: "Site and domain counts and this and last month's traffic (bytes)", response: envelope(s.resourceInfo) }),
} as const;
