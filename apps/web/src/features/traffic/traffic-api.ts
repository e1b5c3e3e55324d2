import type { trafficSchemas } from '@edgekeep/contract';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { Query } from '../../api/url';

/** Shapes of the traffic calls, taken from the contract (types only). */
export type ExtraTrafficPlan = z.infer<typeof trafficSchemas.extraTrafficPlanItem>;
export type PlanBody = z.input<typeof trafficSchemas.createExtraTrafficPlanBody>;
export type PlanUpdate = z.input<typeof trafficSchemas.updateExtraTrafficPlanBody>;
export type MonthlyUsage = z.infer<typeof trafficSchemas.monthlyUsageItem>;
export type ResourceInfo = z.infer<typeof trafficSchemas.resourceInfo>;
export type TrafficState = MonthlyUsage['trafficState'];

type Area = Exclude<Tier, 'admin'>;

/** Spec §7 Traffic: plans and monthly usages of the client and user tiers, and the user's resource info. */
export const trafficApi = {
  plans: (tier: Area, query: Query) => callList<ExtraTrafficPlan>(`${tier}/extraTrafficPlans`, { tier, query }),
  createPlan: (body: PlanBody) => call<ExtraTrafficPlan>('client/extraTrafficPlan', { tier: 'client', method: 'POST', body }),
  updatePlan: (body: PlanUpdate) => call<ExtraTrafficPlan>('client/extraTrafficPlan', { tier: 'client', method: 'PUT', body }),
  removePlans: (ids: number[]) => call<unknown>('client/extraTrafficPlans', { tier: 'client', method: 'DELETE', body: { ids } }),
  monthlyUsages: (tier: Area, query: Query) => callList<MonthlyUsage>(`${tier}/traffic/monthlyUsages`, { tier, query }),
  resourceInfo: () => call<ResourceInfo>('user/resourceInfo', { tier: 'user', delayMs: 0 }),
  metaSites: () => call<{ id: number; name: string }[]>('client/metaSites', { tier: 'client' }),
  metaProducts: () => call<{ id: number; name: string }[]>('client/metaProducts', { tier: 'client' }),
};
