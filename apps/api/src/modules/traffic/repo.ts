import type { trafficSchemas } from '@edgekeep/contract';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite, ReachedSiteIds, ReachedSitesQuery } from '../sites/repo';

type PlansQuery = Partial<z.infer<typeof trafficSchemas.extraTrafficPlansQuery>> & { page: number; pageSize: number };
type PlanTable = Database['extra_traffic_plans'];
type TrafficState = (typeof trafficSchemas.TRAFFIC_STATES)[number];

const plans = (db: Db) =>
  db
    .selectFrom('extra_traffic_plans as p')
    .innerJoin('sites', 'sites.id', 'p.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .innerJoin('accounts as owner', 'owner.id', 'sites.user_id')
    .selectAll('p')
    .select(['sites.name as site_name', 'sites.user_id', 'owner.email as user_email', 'sites.product_id', 'products.name as product_name']);
export type PlanRow = Awaited<ReturnType<ReturnType<typeof plans>['executeTakeFirstOrThrow']>>;

/**
 * The extra traffic plans of the sites a caller reaches, `sites` the ids query the sites repository answers. A plan
 * of another site answers 101003/404 ("extra traffic plan not found") as if it did not exist.
 */
export function trafficPlansRepo(db: Db, sites: ReachedSiteIds) {
  const reached = () => plans(db).where('p.site_id', 'in', sites);
  return {
    async get(id: number) {
      const row = await reached().where('p.id', '=', id).executeTakeFirst();
      if (!row) throw notFound('extra traffic plan');
      return row;
    },

    /** Every one of `ids` must be a plan the caller reaches; one it does not fails them all as if missing. */
    async some(ids: number[]) {
      const found = await reached().where('p.id', 'in', ids).execute();
      if (found.length !== new Set(ids).size) throw notFound('extra traffic plan');
      return found;
    },

    page(query: PlansQuery) {
      let q = reached();
      if (query.userID) q = q.where('sites.user_id', '=', query.userID);
      if (query.productID) q = q.where('sites.product_id', '=', query.productID);
      if (query.productName) q = q.where('products.name', 'like', `%${query.productName}%`);
      if (query.year) q = q.where('p.year', '=', query.year);
      if (query.month) q = q.where('p.month', '=', query.month);
      return paginate(q, {
        page: query,
        sortable: { createdAt: 'p.created_at', trafficGB: 'p.traffic_gb', price: 'p.price', year: 'p.year', month: 'p.month', siteName: 'sites.name' },
        defaultSort: { column: 'p.created_at', order: 'desc' },
        idColumn: 'p.id',
      });
    },

    /** A new plan of a site the caller reached; answers its id. */
    async insert(site: ReachedSite, plan: { trafficGB: number; price: number; year: number; month: number; memo: string; createdBy: number }) {
      const at = now();
      const values = { site_id: site.id, traffic_gb: plan.trafficGB, price: plan.price, year: plan.year, month: plan.month, memo: plan.memo, created_by: plan.createdBy, created_at: at, updated_at: at };
      return (await db.insertInto('extra_traffic_plans').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    /** Changes a plan `get` or `some` read. */
    update: (plan: PlanRow, values: Updateable<PlanTable>) => db.updateTable('extra_traffic_plans').set({ ...values, updated_at: now() }).where('id', '=', plan.id).execute(),

    /** Removes plans `some` read. */
    remove: (found: PlanRow[]) => db.deleteFrom('extra_traffic_plans').where('id', 'in', found.map((p) => p.id)).execute(),
  };
}

/** The stored terms of the product a site the caller reached is made from. */
export const productLimitsOf = async (db: Db, site: ReachedSite) => (await db.selectFrom('products').select('limits').where('id', '=', site.productID).executeTakeFirstOrThrow()).limits;

/** A page of the caller's sites (of one owner, when given) with their product's terms and whether their traffic is limited. */
export function usagePage(sites: ReachedSitesQuery, query: { page: number; pageSize: number; userID?: number }) {
  const q = (query.userID ? sites.where('sites.user_id', '=', query.userID) : sites)
    .leftJoin('site_traffic_states as st', 'st.site_id', 'sites.id')
    .select(['products.limits as product_limits', 'st.limited as traffic_limited']);
  return paginate(q, { page: query, sortable: {}, defaultSort: { column: 'sites.id', order: 'asc' }, idColumn: 'sites.id' });
}

/** Unscoped (the caller reached the sites, or it is the sweep): the extra gigabytes each site's plans add in a month. */
export async function extraTrafficOf(db: Db, siteIds: number[], month: { year: number; month: number }) {
  const rows = await db
    .selectFrom('extra_traffic_plans')
    .select(['site_id', (eb) => eb.fn.sum<number>('traffic_gb').as('gb')])
    .where('site_id', 'in', siteIds)
    .where('year', '=', month.year)
    .where('month', '=', month.month)
    .groupBy('site_id')
    .execute();
  return new Map(rows.map((p) => [p.site_id, Number(p.gb)]));
}

/** Unscoped, for the traffic sweep: every site (or those given) with its product's terms, zone and kept traffic state. */
export function sitesToEvaluate(db: Db, siteIds?: number[]) {
  let q = db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .leftJoin('site_traffic_states as st', 'st.site_id', 'sites.id')
    .select(['sites.id', 'sites.name', 'sites.user_id', 'products.limits', 'products.zone_id', 'st.state', 'st.limited']);
  if (siteIds) q = q.where('sites.id', 'in', siteIds);
  return q.execute();
}

/** Unscoped, for the traffic sweep: keeps a site's traffic state. */
export const keepTrafficState = (db: Db, siteId: number, state: TrafficState, limited: 0 | 1) =>
  db
    .insertInto('site_traffic_states')
    .values({ site_id: siteId, state, limited, evaluated_at: now() })
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ state, limited, evaluated_at: now() }))
    .execute();

/** Unscoped, for the nodes' state: which of these sites have their traffic limited. */
export const limitedSites = async (db: Db, siteIds: number[]) =>
  (await db.selectFrom('site_traffic_states').select('site_id').where('site_id', 'in', siteIds).where('limited', '=', 1).execute()).map((r) => r.site_id);
