import { siteActionSchemas, type PageQuery, type siteSchemas } from '@edgekeep/contract';
import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { readJson, stringList } from '../../db/json-column';
import { paginate } from '../../db/paging';
import type { Database, SiteTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';

/*
 * The site aggregate's repository. A caller reaches sites only through `sitesRepo(deps, principal)`, whose every query
 * starts from the sites that caller may see, so a service cannot forget the tenant. A site read there comes back as a
 * `ReachedSite`; the repositories of what hangs off a site (its domains, ports, basic auth, anti-CC rules, …) take
 * only that, so each of their queries is bound to a site the caller reaches; `reachSite(deps, principal, siteId,
 * xRepo)` gives a service both at once. What is not a caller's (the creation of a site, whose owner the service
 * checks; the expiry sweep; what the agent and the edge state read for a zone's nodes) is a plain function named for
 * what it does, and its comment says it is unscoped.
 */

const base = (db: Db) =>
  db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .innerJoin('accounts as owner', 'owner.id', 'sites.user_id')
    .selectAll('sites')
    .select([
      'products.name as product_name',
      'products.zone_id',
      'products.group_id as product_group_id',
      'products.client_id as product_client_id',
      'owner.email as user_email',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;

const toItem = (s: Row) => ({
  id: s.id,
  name: s.name,
  status: s.status,
  userID: s.user_id,
  userEmail: s.user_email,
  productID: s.product_id,
  productName: s.product_name,
  zoneID: s.zone_id,
  groupID: s.group_id ?? s.product_group_id,
  cname: s.cname,
  tags: readJson('sites.tags', stringList, s.tags),
  forceBackup: s.force_backup === 1,
  limitations: readJson('sites.limitations', siteActionSchemas.siteLimitations, s.limitations),
  domainCount: s.domain_count,
  /** Not in the contract's answers: what a kept domain list of the site is checked against. */
  domainsVersion: s.domains_version,
  /** Not in the contract's answers: the client whose product the site is made from (its licence and limits). */
  productClientID: s.product_client_id,
  expiredAt: s.expires_at,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});

declare const reached: unique symbol;
/** A site as the caller who reached it sees it; only `sitesRepo(…).get` makes one. */
export type ReachedSite = ReturnType<typeof toItem> & { readonly [reached]: true };
const reachedItem = (row: Row) => toItem(row) as ReachedSite;

/**
 * The sites an account reaches: a client, the sites of the users below it; a user, its own sites; a sub-user,
 * the sites of its tenant's root user shared with it.
 */
async function scoped(deps: AppDeps, principal: Principal) {
  // A client and a tenant's root user are known from their token's caller without reading their account again.
  if (principal.tier === 'client') return base(deps.db).where('owner.tree_path', 'like', `%/${principal.accountId}/%`);
  if (principal.tier === 'user' && principal.isRoot) return base(deps.db).where('sites.user_id', '=', principal.accountId);
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  if (actor.auth === 'client') return base(deps.db).where('owner.tree_path', 'like', `%/${actor.id}/%`);
  const owner = (await tenantRootId(deps, actor)) ?? actor.id;
  const own = base(deps.db).where('sites.user_id', '=', owner);
  if (owner === actor.id) return own;
  // A sub-user reaches only the sites its user shared with it.
  return own.where('sites.id', 'in', deps.db.selectFrom('site_users').select('site_users.site_id').where('site_users.account_id', '=', actor.id));
}

// A site with layer-4 ports is a layer-4 site (contract l4-ports portItem).
const hasL4 = (eb: ExpressionBuilder<Database, 'sites'>) =>
  eb.exists(eb.selectFrom('l4_ports').select('l4_ports.id').whereRef('l4_ports.site_id', '=', 'sites.id')).as('has_l4');

type SitesQuery = Partial<z.infer<typeof siteSchemas.sitesQuery>> & { page: number; pageSize: number };
const ids = (sites: ReachedSite[]) => sites.map((s) => s.id);

/** The caller's sites, and the changes to sites it reached. */
export function sitesRepo(deps: AppDeps, principal: Principal) {
  const db = deps.db;
  return {
    /** The caller's sites as a query (sites joined with their product and owner), for reads across them. */
    query: () => scoped(deps, principal),

    /** The ids of the caller's sites (those of them with this id or owner), as a query to narrow others by. */
    async ids(filter: { siteId?: number; userId?: number } = {}) {
      let q = (await scoped(deps, principal)).clearSelect();
      if (filter.siteId) q = q.where('sites.id', '=', filter.siteId);
      if (filter.userId) q = q.where('sites.user_id', '=', filter.userId);
      return q.select('sites.id');
    },

    /** Each of the caller's sites with its zone and whether it is a layer-4 site. */
    kinds: async () => (await scoped(deps, principal)).clearSelect().select(['sites.id', 'products.zone_id']).select(hasL4).execute(),

    /** One site the caller reaches, or 101003/404 exactly as if it did not exist. */
    async get(siteId: number) {
      const row = await (await scoped(deps, principal)).where('sites.id', '=', siteId).executeTakeFirst();
      if (!row) throw notFound('site');
      return reachedItem(row);
    },

    /** Every site the caller reaches, or those of them with this id or in this zone. */
    async all(filter: { siteId?: number; zoneId?: number } = {}) {
      let q = await scoped(deps, principal);
      if (filter.siteId) q = q.where('sites.id', '=', filter.siteId);
      if (filter.zoneId) q = q.where('products.zone_id', '=', filter.zoneId);
      return (await q.execute()).map(reachedItem);
    },

    async page(query: SitesQuery) {
      let q = await scoped(deps, principal);
      if (query.status !== undefined && query.status !== -1) q = q.where('sites.status', '=', query.status);
      if (query.siteName) q = q.where('sites.name', 'like', `%${query.siteName}%`);
      if (query.productID) q = q.where('sites.product_id', '=', query.productID);
      if (query.userID) q = q.where('sites.user_id', '=', query.userID);
      for (const tag of query.tags === undefined ? [] : [query.tags].flat()) q = q.where('sites.tags', 'like', `%${JSON.stringify(tag)}%`);
      const page = await paginate(q, {
        page: query,
        sortable: { name: 'sites.name', status: 'sites.status', createdAt: 'sites.created_at', updatedAt: 'sites.updated_at' },
        defaultSort: { column: 'sites.created_at', order: 'desc' },
        idColumn: 'sites.id',
      });
      return { data: page.data.map(reachedItem), total: page.total };
    },

    async names() {
      const rows = await (await scoped(deps, principal)).orderBy('sites.name').execute();
      return rows.map((s) => ({ id: s.id, name: s.name }));
    },

    /** Changes the given sites alike; they count as updated (at `at`, now unless given). */
    update: (sites: ReachedSite[], values: Updateable<SiteTable>, at = now()) =>
      db.updateTable('sites').set({ ...values, updated_at: at }).where('id', 'in', ids(sites)).execute(),

    remove: (sites: ReachedSite[]) => db.deleteFrom('sites').where('id', 'in', ids(sites)).execute(),

    /** The accounts a site is shared with. */
    sharedWith: (site: ReachedSite) =>
      db
        .selectFrom('site_users')
        .innerJoin('accounts', 'accounts.id', 'site_users.account_id')
        .select(['accounts.id', 'accounts.email', 'accounts.name'])
        .where('site_users.site_id', '=', site.id)
        .orderBy('accounts.email')
        .execute(),

    async share(sites: ReachedSite[], accountIds: number[]) {
      const at = now();
      const rows = sites.flatMap((s) => accountIds.map((account_id) => ({ site_id: s.id, account_id, created_at: at })));
      await db.insertInto('site_users').values(rows).onConflict((oc) => oc.columns(['site_id', 'account_id']).doNothing()).execute();
    },

    /** A page of the products the given sites are made from. */
    productsOf: (sites: ReachedSite[], page: PageQuery) =>
      paginate(db.selectFrom('products').selectAll().where('id', 'in', [...new Set(sites.map((s) => s.productID))]), {
        page,
        sortable: {},
        defaultSort: { column: 'name', order: 'asc' },
      }),

    unshare: (sites: ReachedSite[], accountIds: number[]) =>
      db.deleteFrom('site_users').where('site_id', 'in', ids(sites)).where('account_id', 'in', accountIds).execute(),
  };
}

/** The query of the ids of a caller's sites that `sitesRepo(…).ids()` answers, for the repositories of what lies across them. */
export type ReachedSiteIds = Awaited<ReturnType<ReturnType<typeof sitesRepo>['ids']>>;
/** The query of a caller's sites that `sitesRepo(…).query()` answers. */
export type ReachedSitesQuery = Awaited<ReturnType<ReturnType<typeof sitesRepo>['query']>>;

/** The caller's site `siteId` (101003/404 when it does not reach it) with a repository of what hangs off it. */
export async function reachSite<R>(deps: AppDeps, principal: Principal, siteId: number, repoOf: (db: Db, site: ReachedSite) => R) {
  const site = await sitesRepo(deps, principal).get(siteId);
  return { site, repo: repoOf(deps.db, site) };
}

/** Unscoped, for an admin's statistics: every site of the platform with its zone and whether it is a layer-4 site. */
export const everySiteKind = (db: Db) =>
  db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select(['sites.id', 'products.zone_id']).select(hasL4).execute();

/** Unscoped, for the statistics' labels and the edge state: the names of these sites, by id. */
export const siteNames = (db: Db, siteIds: number[]) => db.selectFrom('sites').select(['id', 'name']).where('id', 'in', siteIds).orderBy('id').execute();

/** A new site; the service has checked that the caller manages its owner and sees its product. */
export const insertSite = async (db: Db, values: Omit<Insertable<SiteTable>, 'created_at' | 'updated_at'>) => {
  const at = now();
  return (await db.insertInto('sites').values({ ...values, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
};

/**
 * Unscoped, for the expiry sweep: marks every site whose expiry has passed as expired and answers them with their
 * zones.
 */
export async function markDueSitesExpired(db: Db) {
  const due = await db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'products.zone_id'])
    .where('sites.status', '!=', 3)
    .where('sites.expires_at', 'is not', null)
    .where('sites.expires_at', '<=', now())
    .execute();
  if (due.length) await db.updateTable('sites').set({ status: 3, updated_at: now() }).where('id', 'in', due.map((s) => s.id)).execute();
  return due.map((s) => ({ id: s.id, zoneID: s.zone_id }));
}

/** Unscoped, for the edge state: these sites' own limitations and their product's limits. */
export const limitationsOfSites = (db: Db, siteIds: number[]) =>
  db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select(['sites.id', 'sites.limitations', 'products.limits']).where('sites.id', 'in', siteIds).execute();

/**
 * Unscoped, for the edge state: the sites a node of the zone serves (in normal status on products of the zone; a site
 * forced onto its product's backup group only on the nodes of that group), with the revision they last changed at.
 */
export const sitesServedByNode = (db: Db, zoneId: number, nodeId: number) =>
  db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .where('products.zone_id', '=', zoneId)
    .where('sites.status', '=', 1)
    .where((eb) =>
      eb.or([
        eb('sites.force_backup', '=', 0),
        eb('products.backup_group_id', 'in', eb.selectFrom('node_group_members').select('group_id').where('node_id', '=', nodeId)),
      ]),
    )
    .leftJoin('site_edge_revisions', 'site_edge_revisions.site_id', 'sites.id')
    .select((eb) => ['sites.id', eb.fn.coalesce('site_edge_revisions.revision', eb.lit(0)).as('edge_revision')])
    .orderBy('sites.id')
    .execute();

/** Unscoped, for a node's log lines: the ids of the sites on the products of its zone. */
export const siteIdsOfZone = async (db: Db, zoneId: number) =>
  (await db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select('sites.id').where('products.zone_id', '=', zoneId).execute()).map((r) => r.id);

/** Unscoped, for the licence: how many sites are made from a client's products. */
export async function clientSiteCount(db: Db, clientId: number) {
  const row = await db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select((eb) => eb.fn.countAll().as('n')).where('products.client_id', '=', clientId).executeTakeFirst();
  return toCount(row?.n as number);
}
