import crypto from 'node:crypto';
import { Codes, siteActionSchemas, type siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { refreshResolutions } from '../resolutions/service';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, manages } from '../accounts/repo';
import { assertCanCreate } from '../licenses/limits';
import { licensedClientOf } from '../licenses/usage';
import { visibleProduct } from '../products/service';
import { tenantRootId } from '../roles/service';
import { clientOf } from '../zones/service';
import { readJson, stringList } from '../../db/json-column';

type SitesQuery = z.infer<typeof siteSchemas.sitesQuery>;

const base = (deps: AppDeps) =>
  deps.db
    .selectFrom('sites')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .innerJoin('accounts as owner', 'owner.id', 'sites.user_id')
    .selectAll('sites')
    .select(['products.name as product_name', 'products.zone_id', 'products.group_id as product_group_id', 'owner.email as user_email']);
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
  expiredAt: s.expires_at,
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});

/**
 * The sites an account reaches: a client, the sites of the users below it; a user, its own sites; a sub-user,
 * the sites of its tenant's root user shared with it.
 */
export async function scopedSites(deps: AppDeps, principal: Principal) {
  // A client and a tenant's root user are known from their token's caller without reading their account again.
  if (principal.tier === 'client') return base(deps).where('owner.tree_path', 'like', `%/${principal.accountId}/%`);
  if (principal.tier === 'user' && principal.isRoot) return base(deps).where('sites.user_id', '=', principal.accountId);
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  if (actor.auth === 'client') return base(deps).where('owner.tree_path', 'like', `%/${actor.id}/%`);
  const owner = (await tenantRootId(deps, actor)) ?? actor.id;
  const own = base(deps).where('sites.user_id', '=', owner);
  if (owner === actor.id) return own;
  // A sub-user reaches only the sites its user shared with it.
  return own.where('sites.id', 'in', deps.db.selectFrom('site_users').select('site_users.site_id').where('site_users.account_id', '=', actor.id));
}

/** One site the caller reaches, or 101003/404 exactly as if it did not exist. */
export async function reachableSite(deps: AppDeps, principal: Principal, siteId: number) {
  const row = await (await scopedSites(deps, principal)).where('sites.id', '=', siteId).executeTakeFirst();
  if (!row) throw notFound('site');
  return toItem(row);
}

export async function listSites(deps: AppDeps, principal: Principal, query: Partial<SitesQuery> & { page: number; pageSize: number }) {
  let q = await scopedSites(deps, principal);
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
  return { data: page.data.map(toItem), total: page.total };
}

export async function metaSites(deps: AppDeps, principal: Principal) {
  const rows = await (await scopedSites(deps, principal)).orderBy('sites.name').execute();
  return rows.map((s) => ({ id: s.id, name: s.name }));
}

export async function siteTags(deps: AppDeps, principal: Principal) {
  const rows = await (await scopedSites(deps, principal)).execute();
  return [...new Set(rows.flatMap((s) => readJson('sites.tags', stringList, s.tags)))].sort();
}

/** A change to these sites alone: their zones take a new revision and their nodes build only these sites again. */
export const sitesChanged = (deps: AppDeps, sites: { id: number; zoneID: number }[]) =>
  deps.revisions.bump(deps.db, [...new Set(sites.map((s) => s.zoneID))], { sites: sites.map((s) => s.id) });

/**
 * Sites that entered or left what their zones serve: their nodes build them again (a build reads the served sites
 * anew) and the zones' DNS resolution is recomputed.
 */
async function servedChanged(deps: AppDeps, sites: { id: number; zoneID: number }[]) {
  await sitesChanged(deps, sites);
  await refreshResolutions(deps, [...new Set(sites.map((s) => s.zoneID))]);
}

export const sortedTags = (tags: string[]) => [...new Set(tags)].sort();

/** A site of one of the client's users, made from one of its products; it takes the product's zone and group. */
export async function createSite(deps: AppDeps, principal: Principal, body: z.infer<typeof siteSchemas.createSiteBody>) {
  const actor = await clientOf(deps, principal);
  const product = await visibleProduct(deps, actor, body.productID);
  const user = await findAccount(deps.db, body.userID);
  if (!user || user.auth !== 'user' || !user.is_root || !manages(actor, user)) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'userID', message: 'no such user' }] } });
  }
  if (product.siteLimit > 0 && product.siteCount >= product.siteLimit) throw new ApiError(Codes.ProductSiteCountExceeded);
  await assertCanCreate(deps, { clientId: await licensedClientOf(deps, actor.id), kind: 'site' });
  const at = now();
  const row = await deps.db
    .insertInto('sites')
    .values({
      client_id: actor.id,
      user_id: user.id,
      product_id: product.id,
      group_id: product.groupID,
      name: body.name,
      status: 1,
      cname: `${crypto.randomBytes(6).toString('hex')}.${deps.config.cnameDomain}`,
      tags: JSON.stringify(sortedTags(body.tags)),
      expires_at: body.expiredAt,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await servedChanged(deps, [{ id: row.id, zoneID: product.zoneID }]);
  return reachableSite(deps, principal, row.id);
}

export async function updateSite(deps: AppDeps, principal: Principal, body: { id: number; name?: string; tags?: string[] }) {
  await reachableSite(deps, principal, body.id);
  await deps.db
    .updateTable('sites')
    .set({
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.tags === undefined ? {} : { tags: JSON.stringify(sortedTags(body.tags)) }),
      updated_at: now(),
    })
    .where('id', '=', body.id)
    .execute();
  return reachableSite(deps, principal, body.id);
}

/** A site still in normal status is in use (205003): pause it first. */
export async function removeSites(deps: AppDeps, principal: Principal, ids: number[]) {
  const sites = [];
  for (const id of ids) sites.push(await reachableSite(deps, principal, id));
  if (sites.some((s) => s.status === 1)) throw new ApiError(Codes.SiteInUse);
  await deps.db.deleteFrom('sites').where('id', 'in', ids).execute();
  await servedChanged(deps, sites);
}

/**
 * Which status a site may be set to from which (spec §4, in order paused, normal, locked, expired). Expired is
 * reached only through the site's expiry (the `expired` action and the expiry sweep) and left only by renewing
 * it; a site whose expiry has passed cannot be resumed.
 */
export const STATUS_TRANSITIONS: Record<number, number[]> = { 0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1, 2], 3: [3] };

export async function setSiteStatus(deps: AppDeps, principal: Principal, ids: number[], status: number) {
  const sites: Awaited<ReturnType<typeof reachableSite>>[] = [];
  for (const id of ids) sites.push(await reachableSite(deps, principal, id));
  const at = now();
  const allowed = (s: (typeof sites)[number]) => STATUS_TRANSITIONS[s.status].includes(status) && !(status === 1 && s.expiredAt !== null && s.expiredAt < at);
  const refused = sites.filter((s) => !allowed(s));
  if (refused.length) throw new ApiError(Codes.SiteStatusNotAllowed, { extra: { ids: refused.map((s) => s.id) } });
  await deps.db.updateTable('sites').set({ status, updated_at: at }).where('id', 'in', ids).execute();
  await servedChanged(deps, sites);
}
