import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, manages } from '../accounts/repo';
import { sitesRepo } from './repo';
import { reachedSites } from './service';

/** The user accounts under the caller named by ids (for a user: its sub-users); any other id is refused as a parameter error. */
async function ownSubUsers(deps: AppDeps, principal: Principal, ids: number[]) {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  const subs = [];
  for (const id of new Set(ids)) {
    const target = await findAccount(deps.db, id);
    if (!target || target.auth !== 'user' || !manages(actor, target)) {
      throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'userIDs', message: 'not a sub-user of yours' }] } });
    }
    subs.push(target);
  }
  return subs;
}

export async function siteUsers(deps: AppDeps, principal: Principal, siteId: number) {
  const sites = sitesRepo(deps, principal);
  return sites.sharedWith(await sites.get(siteId));
}

export async function shareSites(deps: AppDeps, principal: Principal, body: { siteIDs: number[]; userIDs: number[] }) {
  const sites = await reachedSites(deps, principal, new Set(body.siteIDs));
  const users = await ownSubUsers(deps, principal, body.userIDs);
  await sitesRepo(deps, principal).share(sites, users.map((u) => u.id));
}

export async function unshareSites(deps: AppDeps, principal: Principal, body: { siteIDs: number[]; userIDs: number[] }) {
  const sites = await reachedSites(deps, principal, new Set(body.siteIDs));
  const users = await ownSubUsers(deps, principal, body.userIDs);
  await sitesRepo(deps, principal).unshare(sites, users.map((u) => u.id));
}

/**
 * The client's side: stops sharing its users' sites with the named users. A site's owner stays (101003): the
 * owner changes only by handing the site over.
 */
export async function removeSiteUsers(deps: AppDeps, principal: Principal, body: { ids: number[]; userIDs: number[] }) {
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  const users = await ownSubUsers(deps, principal, body.userIDs);
  const owner = sites.find((s) => users.some((u) => u.id === s.userID));
  if (owner) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'userIDs', message: `user ${owner.userID} owns site ${owner.id}` }] } });
  await sitesRepo(deps, principal).unshare(sites, users.map((u) => u.id));
}
