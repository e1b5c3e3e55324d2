import { Codes, type siteActionSchemas } from '@edgekeep/contract';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import { now } from '../../db';
import type { SiteTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { findAccount, manages } from '../accounts/repo';
import { visibleProduct } from '../products/service';
import { purgeSite } from '../site-settings/service';
import { markDueSitesExpired, sitesRepo, type ReachedSite } from '../sites/repo';
import { reachedSites, sitesChanged, sortedTags } from '../sites/service';
import { clientOf } from '../zones/service';

type Limitations = z.infer<typeof siteActionSchemas.siteLimitations>;

const badField = (field: string, message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message }] } });

async function update(deps: AppDeps, principal: Principal, sites: ReachedSite[], values: Updateable<SiteTable>, extraZones: number[] = []) {
  await sitesRepo(deps, principal).update(sites, values);
  await deps.revisions.bump(deps.db, [...new Set([...sites.map((s) => s.zoneID), ...extraZones])], { sites: sites.map((s) => s.id) });
}

/** Hands the sites over to another root user below the client. */
export async function assignUser(deps: AppDeps, principal: Principal, body: { ids: number[]; userID: number }) {
  const actor = await clientOf(deps, principal);
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  const user = await findAccount(deps.db, body.userID);
  if (!user || user.auth !== 'user' || !user.is_root || !manages(actor, user)) throw badField('userID', 'no such user');
  await update(deps, principal, sites, { user_id: user.id });
}

/** Moves sites to another product; they take its zone and group, and leave a forced backup it cannot honour. */
export async function changeProduct(deps: AppDeps, principal: Principal, body: { ids: number[]; productID: number }) {
  const actor = await clientOf(deps, principal);
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  const product = await visibleProduct(deps, actor, body.productID);
  const arriving = sites.filter((s) => s.productID !== product.id).length;
  if (product.siteLimit > 0 && product.siteCount + arriving > product.siteLimit) throw new ApiError(Codes.ProductSiteCountExceeded);
  await update(deps, principal, sites, { product_id: product.id, group_id: product.groupID, ...(product.backupGroupID === null ? { force_backup: 0 } : {}) }, [product.zoneID]);
}

/**
 * Re-derives what a site takes from its product and the platform: the product's current group, and the CNAME
 * under the configured CNAME domain. The CNAME's own label stays, so DNS records customers made keep working
 * wherever the domain is unchanged.
 */
export async function refreshProduct(deps: AppDeps, principal: Principal, ids: number[]) {
  const actor = await clientOf(deps, principal);
  const sites = await reachedSites(deps, principal, new Set(ids));
  for (const site of sites) {
    const product = await visibleProduct(deps, actor, site.productID);
    const label = site.cname.split('.')[0];
    await sitesRepo(deps, principal).update([site], {
      group_id: product.groupID,
      cname: `${label}.${deps.config.cnameDomain}`,
      ...(product.backupGroupID === null ? { force_backup: 0 } : {}),
    });
  }
  await sitesChanged(deps, sites);
}

/** Keeps only the limits given a number; null clears one back to the product's. */
export async function setLimitations(deps: AppDeps, principal: Principal, body: { ids: number[]; limitations: Limitations }) {
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  for (const site of sites) {
    const merged = { ...site.limitations, ...body.limitations };
    const kept = Object.fromEntries(Object.entries(merged).filter(([, v]) => typeof v === 'number'));
    await sitesRepo(deps, principal).update([site], { limitations: JSON.stringify(kept) });
  }
  await sitesChanged(deps, sites);
}

/** A past time expires the sites at once (they stop being served); a later one (or none) renews an expired site. */
export async function setExpiry(deps: AppDeps, principal: Principal, body: { ids: number[]; expiredAt: string | null }) {
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  const expiresAt = body.expiredAt === null ? null : new Date(body.expiredAt).toISOString();
  const past = expiresAt !== null && expiresAt <= now();
  for (const site of sites) {
    const status = past ? 3 : site.status === 3 ? 1 : site.status;
    await sitesRepo(deps, principal).update([site], { expires_at: expiresAt, status });
  }
  await sitesChanged(deps, sites);
}

/** Marks every site whose expiry has passed as expired; answers how many. */
export async function expireDueSites(deps: AppDeps) {
  const due = await markDueSitesExpired(deps.db);
  if (due.length) await sitesChanged(deps, due);
  return due.length;
}

/** Enabling needs a backup group on every site's product. */
export async function forceBackup(deps: AppDeps, principal: Principal, body: { ids: number[]; enabled: boolean }) {
  const actor = await clientOf(deps, principal);
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  if (body.enabled) {
    for (const site of sites) {
      if ((await visibleProduct(deps, actor, site.productID)).backupGroupID === null) throw badField('ids', `the product of site ${site.name} has no backup group`);
    }
  }
  await update(deps, principal, sites, { force_backup: body.enabled ? 1 : 0 });
}

export async function setTags(deps: AppDeps, principal: Principal, body: { ids: number[]; tags: string[] }) {
  const sites = await reachedSites(deps, principal, new Set(body.ids));
  await sitesRepo(deps, principal).update(sites, { tags: JSON.stringify(sortedTags(body.tags)) });
}

/** Queues a full purge of each site on the nodes of its zone; answers how many node actions were queued. */
export async function clearCache(deps: AppDeps, principal: Principal, ids: number[]) {
  const sites = await reachedSites(deps, principal, new Set(ids));
  let nodes = 0;
  for (const site of sites) nodes += (await purgeSite(deps, principal, site.id)).nodes;
  return { nodes };
}
