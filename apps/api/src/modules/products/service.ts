import { Codes, type siteSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { toCount } from '../../db';
import type { ProductTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import type { Account } from '../accounts/repo';
import { clientOf, ownedZone } from '../zones/service';
import { isGroupOfZone, productsRepo } from './repo';
import { readTerms, type Terms } from './terms';

type Product = z.infer<typeof siteSchemas.productItem>;
type Body = z.infer<typeof siteSchemas.createProductBody>;

const termsOf = (b: Body): Terms => {
  const { name: _n, zoneID: _z, groupID: _g, backupGroupID: _b, expiredAt: _e, ...terms } = b;
  return terms;
};

const toItem = (p: Selectable<ProductTable> & { site_count: unknown }): Product => ({
  id: p.id,
  name: p.name,
  zoneID: p.zone_id,
  groupID: p.group_id,
  backupGroupID: p.backup_group_id,
  ...readTerms(p.limits),
  expiredAt: p.expires_at,
  siteCount: toCount(p.site_count as number),
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});

/** A sub-client sees the products on the zones assigned to it; only the owner changes them. */
export async function listProducts(deps: AppDeps, principal: Principal, query: z.infer<typeof siteSchemas.productsQuery>) {
  const page = await productsRepo(deps, await clientOf(deps, principal)).page(query);
  return { data: page.data.map(toItem), total: page.total };
}

export async function metaProducts(deps: AppDeps, principal: Principal) {
  const rows = await productsRepo(deps, await clientOf(deps, principal)).names();
  return rows.map((p) => ({ id: p.id, name: p.name }));
}

export async function visibleProduct(deps: AppDeps, actor: Account, id: number) {
  const row = await productsRepo(deps, actor).get(id);
  if (!row) throw notFound('product');
  return toItem(row);
}

/** The groups must be groups of the product's zone. */
async function checkGroups(deps: AppDeps, zoneId: number, groupIds: (number | null)[]) {
  for (const id of groupIds) {
    if (id === null) continue;
    if (!(await isGroupOfZone(deps.db, id, zoneId))) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'groupID', message: 'not a group of the zone' }] } });
  }
}

export async function createProduct(deps: AppDeps, principal: Principal, body: Body) {
  const actor = await clientOf(deps, principal);
  await ownedZone(deps, actor, body.zoneID);
  await checkGroups(deps, body.zoneID, [body.groupID, body.backupGroupID]);
  const id = await productsRepo(deps, actor).create({
    name: body.name,
    zone_id: body.zoneID,
    group_id: body.groupID,
    backup_group_id: body.backupGroupID,
    limits: JSON.stringify(termsOf(body)),
    expires_at: body.expiredAt,
  });
  return visibleProduct(deps, actor, id);
}

export async function updateProduct(deps: AppDeps, principal: Principal, body: Partial<Body> & { id: number }) {
  const actor = await clientOf(deps, principal);
  const current = await visibleProduct(deps, actor, body.id);
  await ownedZone(deps, actor, current.zoneID);
  const merged: Body = { ...current, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) } as Body;
  if (merged.zoneID !== current.zoneID && current.siteCount > 0) throw new ApiError(Codes.ProductInUse);
  await ownedZone(deps, actor, merged.zoneID);
  await checkGroups(deps, merged.zoneID, [merged.groupID, merged.backupGroupID]);
  await productsRepo(deps, actor).update(body.id, {
    name: merged.name,
    zone_id: merged.zoneID,
    group_id: merged.groupID,
    backup_group_id: merged.backupGroupID,
    limits: JSON.stringify(termsOf(merged)),
    expires_at: merged.expiredAt,
  });
  await deps.revisions.bump(deps.db, [merged.zoneID]);
  return visibleProduct(deps, actor, body.id);
}

export async function removeProduct(deps: AppDeps, principal: Principal, id: number) {
  const actor = await clientOf(deps, principal);
  const product = await visibleProduct(deps, actor, id);
  await ownedZone(deps, actor, product.zoneID);
  if (product.siteCount > 0) throw new ApiError(Codes.ProductInUse);
  await productsRepo(deps, actor).remove(id);
}
