import crypto from 'node:crypto';
import { Codes, type siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { refreshResolutions } from '../resolutions/service';
import { ApiError } from '../../http/errors';
import { findAccount, manages } from '../accounts/repo';
import { assertCanCreate } from '../licenses/limits';
import { licensedClientOf } from '../licenses/usage';
import { visibleProduct } from '../products/service';
import { clientOf } from '../zones/service';
import { insertSite, sitesRepo, type ReachedSite } from './repo';

export async function siteTags(deps: AppDeps, principal: Principal) {
  return [...new Set((await sitesRepo(deps, principal).all()).flatMap((s) => s.tags))].sort();
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
  const id = await insertSite(deps.db, {
    client_id: actor.id,
    user_id: user.id,
    product_id: product.id,
    group_id: product.groupID,
    name: body.name,
    status: 1,
    cname: `${crypto.randomBytes(6).toString('hex')}.${deps.config.cnameDomain}`,
    tags: JSON.stringify(sortedTags(body.tags)),
    expires_at: body.expiredAt,
  });
  await servedChanged(deps, [{ id, zoneID: product.zoneID }]);
  return sitesRepo(deps, principal).get(id);
}

export async function updateSite(deps: AppDeps, principal: Principal, body: { id: number; name?: string; tags?: string[] }) {
  const sites = sitesRepo(deps, principal);
  await sites.update([await sites.get(body.id)], {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.tags === undefined ? {} : { tags: JSON.stringify(sortedTags(body.tags)) }),
  });
  return sites.get(body.id);
}

/** The sites named by ids, each one the caller reaches (else 101003/404 as if it did not exist). */
export async function reachedSites(deps: AppDeps, principal: Principal, ids: Iterable<number>) {
  const repo = sitesRepo(deps, principal);
  const sites: ReachedSite[] = [];
  for (const id of ids) sites.push(await repo.get(id));
  return sites;
}

/** A site still in normal status is in use (205003): pause it first. */
export async function removeSites(deps: AppDeps, principal: Principal, ids: number[]) {
  const sites = await reachedSites(deps, principal, ids);
  if (sites.some((s) => s.status === 1)) throw new ApiError(Codes.SiteInUse);
  await sitesRepo(deps, principal).remove(sites);
  await servedChanged(deps, sites);
}

/**
 * Which status a site may be set to from which (spec §4, in order paused, normal, locked, expired). Expired is
 * reached only through the site's expiry (the `expired` action and the expiry sweep) and left only by renewing
 * it; a site whose expiry has passed cannot be resumed.
 */
export const STATUS_TRANSITIONS: Record<number, number[]> = { 0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1, 2], 3: [3] };

export async function setSiteStatus(deps: AppDeps, principal: Principal, ids: number[], status: number) {
  const sites = await reachedSites(deps, principal, ids);
  const at = now();
  const allowed = (s: ReachedSite) => STATUS_TRANSITIONS[s.status].includes(status) && !(status === 1 && s.expiredAt !== null && s.expiredAt < at);
  const refused = sites.filter((s) => !allowed(s));
  if (refused.length) throw new ApiError(Codes.SiteStatusNotAllowed, { extra: { ids: refused.map((s) => s.id) } });
  await sitesRepo(deps, principal).update(sites, { status }, at);
  await servedChanged(deps, sites);
}
