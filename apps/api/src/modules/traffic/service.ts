import type { trafficSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachedDomainsRepo } from '../client-domains/repo';
import { sitesRepo } from '../sites/repo';
import { productLimitsOf, trafficPlansRepo, usagePage, type PlanRow } from './repo';
import { evaluateTraffic } from './state';
import { isCurrentMonth, monthOf, monthRange, previousMonth, usageOf, type Month } from './usage';
import { readTerms } from '../products/terms';

type PlansQuery = z.infer<typeof trafficSchemas.extraTrafficPlansQuery>;
type CreateBody = z.infer<typeof trafficSchemas.createExtraTrafficPlanBody>;
type UpdateBody = z.infer<typeof trafficSchemas.updateExtraTrafficPlanBody>;

/** The plans of the sites the caller reaches (a client: its users' sites; a user: its tenant's sites). */
const reachedPlans = async (deps: AppDeps, principal: Principal) => trafficPlansRepo(deps.db, await sitesRepo(deps, principal).ids());

const toPlan = (r: PlanRow): z.infer<typeof trafficSchemas.extraTrafficPlanItem> => ({
  id: r.id,
  siteID: r.site_id,
  siteName: r.site_name,
  userID: r.user_id,
  userEmail: r.user_email,
  productID: r.product_id,
  productName: r.product_name,
  trafficGB: r.traffic_gb,
  price: Number(r.price),
  year: r.year,
  month: r.month,
  memo: r.memo,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function listPlans(deps: AppDeps, principal: Principal, query: Partial<PlansQuery> & { page: number; pageSize: number }) {
  const page = await (await reachedPlans(deps, principal)).page(query);
  return { data: page.data.map(toPlan), total: page.total };
}

export async function createPlan(deps: AppDeps, principal: Principal, body: CreateBody) {
  const site = await sitesRepo(deps, principal).get(body.siteID);
  const price = body.price ?? Math.round(body.trafficGB * readTerms(await productLimitsOf(deps.db, site)).trafficPrice * 100) / 100;
  const plans = await reachedPlans(deps, principal);
  const id = await plans.insert(site, { trafficGB: body.trafficGB, price, year: body.year, month: body.month, memo: body.memo, createdBy: principal.accountId });
  await evaluateTraffic(deps, { siteIds: [body.siteID] });
  return toPlan(await plans.get(id));
}

export async function updatePlan(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const plans = await reachedPlans(deps, principal);
  const plan = await plans.get(body.id);
  await plans.update(plan, {
    ...(body.trafficGB === undefined ? {} : { traffic_gb: body.trafficGB }),
    ...(body.price === undefined ? {} : { price: body.price }),
    ...(body.year === undefined ? {} : { year: body.year }),
    ...(body.month === undefined ? {} : { month: body.month }),
    ...(body.memo === undefined ? {} : { memo: body.memo }),
  });
  await evaluateTraffic(deps, { siteIds: [plan.site_id] });
  return toPlan(await plans.get(plan.id));
}

/** Removes the plans given; one the caller does not reach fails the whole call as if missing. */
export async function removePlans(deps: AppDeps, principal: Principal, ids: number[]) {
  const plans = await reachedPlans(deps, principal);
  const found = await plans.some(ids);
  await plans.remove(found);
  await evaluateTraffic(deps, { siteIds: [...new Set(found.map((p) => p.site_id))] });
}

type UsageQuery = { page: number; pageSize: number; year?: number; month?: number; userID?: number };

/** One row per site the caller reaches: the month's bytes served, allowance and traffic state (missing year or month: the current one). */
export async function monthlyUsages(deps: AppDeps, principal: Principal, query: UsageQuery) {
  const current = monthOf();
  const month: Month = { year: query.year ?? current.year, month: query.month ?? current.month };
  const page = await usagePage(await sitesRepo(deps, principal).query(), query);
  const usage = await usageOf(deps, { sites: page.data.map((s) => ({ siteId: s.id, productLimits: s.product_limits })), month });
  const thisMonth = isCurrentMonth(month);
  return {
    total: page.total,
    data: page.data.map((s) => {
      const { stops: _stops, ...u } = usage.get(s.id)!;
      return {
        siteID: s.id,
        siteName: s.name,
        userID: s.user_id,
        userEmail: s.user_email,
        productID: s.product_id,
        productName: s.product_name,
        ...month,
        ...u,
        limited: thisMonth && s.traffic_limited === 1,
      };
    }),
  };
}

/** The user dashboard's resource usage: its sites and domains, and the bytes they served this and last month. */
export async function resourceInfo(deps: AppDeps, principal: Principal) {
  const sites = await sitesRepo(deps, principal).ids();
  const ids = (await sites.execute()).map((r) => r.id);
  const domainCount = ids.length ? await reachedDomainsRepo(deps.db, sites).count() : 0;
  const served = async (m: Month) => {
    if (!ids.length) return 0;
    const totals = await deps.analytics.totalsBySite({ ...monthRange(m), siteIds: ids });
    return totals.reduce((sum, t) => sum + t.bytesSent, 0);
  };
  const thisMonth = monthOf();
  return {
    siteCount: ids.length,
    domainCount,
    thisMonthTraffic: await served(thisMonth),
    lastMonthTraffic: await served(previousMonth(thisMonth)),
  };
}
