import type { trafficSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { evaluateTraffic } from './state';
import { isCurrentMonth, monthOf, monthRange, previousMonth, usageOf, type Month } from './usage';
import { readTerms } from '../products/terms';

type PlansQuery = z.infer<typeof trafficSchemas.extraTrafficPlansQuery>;
type CreateBody = z.infer<typeof trafficSchemas.createExtraTrafficPlanBody>;
type UpdateBody = z.infer<typeof trafficSchemas.updateExtraTrafficPlanBody>;

/** The ids of the sites the caller reaches (a client: its users' sites; a user: its tenant's sites). */
const siteIdsOf = async (deps: AppDeps, principal: Principal) => (await sitesRepo(deps, principal).query()).clearSelect().select('sites.id');

const plans = (deps: AppDeps) =>
  deps.db
    .selectFrom('extra_traffic_plans as p')
    .innerJoin('sites', 'sites.id', 'p.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .innerJoin('accounts as owner', 'owner.id', 'sites.user_id')
    .selectAll('p')
    .select(['sites.name as site_name', 'sites.user_id', 'owner.email as user_email', 'sites.product_id', 'products.name as product_name']);
type PlanRow = Awaited<ReturnType<ReturnType<typeof plans>['executeTakeFirstOrThrow']>>;

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
  let q = plans(deps).where('p.site_id', 'in', await siteIdsOf(deps, principal));
  if (query.userID) q = q.where('sites.user_id', '=', query.userID);
  if (query.productID) q = q.where('sites.product_id', '=', query.productID);
  if (query.productName) q = q.where('products.name', 'like', `%${query.productName}%`);
  if (query.year) q = q.where('p.year', '=', query.year);
  if (query.month) q = q.where('p.month', '=', query.month);
  const page = await paginate(q, {
    page: query,
    sortable: { createdAt: 'p.created_at', trafficGB: 'p.traffic_gb', price: 'p.price', year: 'p.year', month: 'p.month', siteName: 'sites.name' },
    defaultSort: { column: 'p.created_at', order: 'desc' },
    idColumn: 'p.id',
  });
  return { data: page.data.map(toPlan), total: page.total };
}

async function reachablePlan(deps: AppDeps, principal: Principal, id: number) {
  const row = await plans(deps).where('p.id', '=', id).where('p.site_id', 'in', await siteIdsOf(deps, principal)).executeTakeFirst();
  if (!row) throw notFound('extra traffic plan');
  return row;
}

const productPrice = async (deps: AppDeps, siteId: number) => {
  const row = await deps.db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select('products.limits').where('sites.id', '=', siteId).executeTakeFirstOrThrow();
  return readTerms(row.limits).trafficPrice;
};

export async function createPlan(deps: AppDeps, principal: Principal, body: CreateBody) {
  await sitesRepo(deps, principal).get(body.siteID);
  const at = now();
  const price = body.price ?? Math.round(body.trafficGB * (await productPrice(deps, body.siteID)) * 100) / 100;
  const row = await deps.db
    .insertInto('extra_traffic_plans')
    .values({ site_id: body.siteID, traffic_gb: body.trafficGB, price, year: body.year, month: body.month, memo: body.memo, created_by: principal.accountId, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await evaluateTraffic(deps, { siteIds: [body.siteID] });
  return toPlan(await reachablePlan(deps, principal, row.id));
}

export async function updatePlan(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const plan = await reachablePlan(deps, principal, body.id);
  await deps.db
    .updateTable('extra_traffic_plans')
    .set({
      ...(body.trafficGB === undefined ? {} : { traffic_gb: body.trafficGB }),
      ...(body.price === undefined ? {} : { price: body.price }),
      ...(body.year === undefined ? {} : { year: body.year }),
      ...(body.month === undefined ? {} : { month: body.month }),
      ...(body.memo === undefined ? {} : { memo: body.memo }),
      updated_at: now(),
    })
    .where('id', '=', plan.id)
    .execute();
  await evaluateTraffic(deps, { siteIds: [plan.site_id] });
  return toPlan(await reachablePlan(deps, principal, plan.id));
}

/** Removes the plans given; one the caller does not reach fails the whole call as if missing. */
export async function removePlans(deps: AppDeps, principal: Principal, ids: number[]) {
  const found = await plans(deps).where('p.id', 'in', ids).where('p.site_id', 'in', await siteIdsOf(deps, principal)).execute();
  if (found.length !== new Set(ids).size) throw notFound('extra traffic plan');
  await deps.db.deleteFrom('extra_traffic_plans').where('id', 'in', ids).execute();
  await evaluateTraffic(deps, { siteIds: [...new Set(found.map((p) => p.site_id))] });
}

type UsageQuery = { page: number; pageSize: number; year?: number; month?: number; userID?: number };

/** One row per site the caller reaches: the month's bytes served, allowance and traffic state (missing year or month: the current one). */
export async function monthlyUsages(deps: AppDeps, principal: Principal, query: UsageQuery) {
  const current = monthOf();
  const month: Month = { year: query.year ?? current.year, month: query.month ?? current.month };
  const scoped = await sitesRepo(deps, principal).query();
  const q = (query.userID ? scoped.where('sites.user_id', '=', query.userID) : scoped)
    .leftJoin('site_traffic_states as st', 'st.site_id', 'sites.id')
    .select(['products.limits as product_limits', 'st.limited as traffic_limited']);
  const page = await paginate(q, { page: query, sortable: {}, defaultSort: { column: 'sites.id', order: 'asc' }, idColumn: 'sites.id' });
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
  const ids = (await (await siteIdsOf(deps, principal)).execute()).map((r) => r.id);
  const domains = ids.length ? await deps.db.selectFrom('domains').select((eb) => eb.fn.countAll().as('n')).where('site_id', 'in', ids).executeTakeFirst() : undefined;
  const served = async (m: Month) => {
    if (!ids.length) return 0;
    const totals = await deps.analytics.totalsBySite({ ...monthRange(m), siteIds: ids });
    return totals.reduce((sum, t) => sum + t.bytesSent, 0);
  };
  const thisMonth = monthOf();
  return {
    siteCount: ids.length,
    domainCount: toCount(domains?.n as number | undefined),
    thisMonthTraffic: await served(thisMonth),
    lastMonthTraffic: await served(previousMonth(thisMonth)),
  };
}
