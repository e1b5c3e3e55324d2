import { Codes } from '@edgekeep/contract';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount, manages } from '../accounts/repo';
import { reachableSite } from './service';

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

async function reachableSites(deps: AppDeps, principal: Principal, ids: number[]) {
  for (const id of new Set(ids)) await reachableSite(deps, principal, id);
  return [...new Set(ids)];
}

export async function siteUsers(deps: AppDeps, principal: Principal, siteId: number) {
  await reachableSite(deps, principal, siteId);
  return deps.db
    .selectFrom('site_users')
    .innerJoin('accounts', 'accounts.id', 'site_users.account_id')
    .select(['accounts.id', 'accounts.email', 'accounts.name'])
    .where('site_users.site_id', '=', siteId)
    .orderBy('accounts.email')
    .execute();
}

export async function shareSites(deps: AppDeps, principal: Principal, body: { siteIDs: number[]; userIDs: number[] }) {
  const sites = await reachableSites(deps, principal, body.siteIDs);
  const users = await ownSubUsers(deps, principal, body.userIDs);
  const at = now();
  const rows = sites.flatMap((site_id) => users.map((u) => ({ site_id, account_id: u.id, created_at: at })));
  await deps.db.insertInto('site_users').values(rows).onConflict((oc) => oc.columns(['site_id', 'account_id']).doNothing()).execute();
}

export async function unshareSites(deps: AppDeps, principal: Principal, body: { siteIDs: number[]; userIDs: number[] }) {
  const sites = await reachableSites(deps, principal, body.siteIDs);
  const users = await ownSubUsers(deps, principal, body.userIDs);
  await deps.db
    .deleteFrom('site_users')
    .where('site_id', 'in', sites)
    .where('account_id', 'in', users.map((u) => u.id))
    .execute();
}

/**
 * The client's side: stops sharing its users' sites with the named users. A site's owner stays (101003): the
 * owner changes only by handing the site over.
 */
export async function removeSiteUsers(deps: AppDeps, principal: Principal, body: { ids: number[]; userIDs: number[] }) {
  const sites = [];
  for (const id of new Set(body.ids)) sites.push(await reachableSite(deps, principal, id));
  const users = await ownSubUsers(deps, principal, body.userIDs);
  const owner = sites.find((s) => users.some((u) => u.id === s.userID));
  if (owner) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'userIDs', message: `user ${owner.userID} owns site ${owner.id}` }] } });
  await deps.db
    .deleteFrom('site_users')
    .where('site_id', 'in', sites.map((s) => s.id))
    .where('account_id', 'in', users.map((u) => u.id))
    .execute();
}
