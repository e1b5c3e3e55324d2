import { useMutation, useQuery } from '@tanstack/react-query';
import { trafficRoutes as r } from '@edgekeep/contract/routes/traffic';
import type { createExtraTrafficPlanBody, extraTrafficPlanItem, extraTrafficPlansQuery, monthlyUsageItem, monthlyUsagesQuery } from '@edgekeep/contract/schemas/traffic';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type ExtraTrafficPlan = z.output<typeof extraTrafficPlanItem>;
export type PlanBody = z.input<typeof createExtraTrafficPlanBody>;
export type MonthlyUsage = z.output<typeof monthlyUsageItem>;
export type TrafficState = MonthlyUsage['trafficState'];

type Area = Exclude<Tier, 'admin'>;

export const trafficKeys = {
  plans: (tier?: Area) => (tier ? (['extraTrafficPlans', tier] as const) : (['extraTrafficPlans'] as const)),
  monthlyUsages: (tier?: Area) => (tier ? (['monthlyUsages', tier] as const) : (['monthlyUsages'] as const)),
  resourceInfo: ['resourceInfo'] as const,
};

/** Spec §7 Traffic: plans and monthly usages of the client and user tiers, and the user's resource info. */
export const fetchPlans = (tier: Area, query: ListQuery) =>
  tier === 'client' ? callRoute(r.plans, { query: query as z.input<typeof extraTrafficPlansQuery> }) : callRoute(r.userPlans, { query: query as z.input<typeof extraTrafficPlansQuery> });
export const fetchMonthlyUsages = (tier: Area, query: ListQuery) =>
  tier === 'client'
    ? callRoute(r.monthlyUsages, { query: query as z.input<typeof monthlyUsagesQuery> })
    : callRoute(r.userMonthlyUsages, { query: query as z.input<typeof monthlyUsagesQuery> });

/** A plan changes the month's allowance, so the usages are refreshed with the plans. */
const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: trafficKeys.plans() }), queryClient.invalidateQueries({ queryKey: trafficKeys.monthlyUsages() })]);

/** Creates a plan, or changes the one whose id is given (its site stays). */
export const useSavePlan = (id?: number) =>
  useMutation({
    mutationFn: ({ siteID, ...body }: PlanBody) => (id ? callRoute(r.updatePlan, { body: { id, ...body } }) : callRoute(r.createPlan, { body: { siteID, ...body } })),
    onSuccess: refresh,
  });
export const useRemovePlans = () => useMutation({ mutationFn: (ids: number[]) => callRoute(r.removePlans, { body: { ids } }), onSuccess: refresh });

export const useResourceInfo = () =>
  useQuery({ queryKey: trafficKeys.resourceInfo, queryFn: async () => (await callRoute(r.resourceInfo, { delayMs: 0 })).data, refetchInterval: 60_000 });
