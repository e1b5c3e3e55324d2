import type { siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from './repo';
import { readTerms } from '../products/terms';

/** The products the caller's sites are made from, with how many of its sites use each. */
export async function userProducts(deps: AppDeps, principal: Principal, query: { page: number; pageSize: number; productIDs?: number | number[] }) {
  const repo = sitesRepo(deps, principal);
  const sites = await repo.all();
  const counts = new Map<number, number>();
  for (const s of sites) counts.set(s.productID, (counts.get(s.productID) ?? 0) + 1);
  const wanted = query.productIDs === undefined ? undefined : new Set([query.productIDs].flat());
  const made = sites.filter((s) => !wanted || wanted.has(s.productID));
  if (!made.length) return { data: [], total: 0 };
  const page = await repo.productsOf(made, query);
  return {
    // The route's response schema keeps only the terms a user may see (limits, bandwidth, price, expiry).
    data: page.data.map((p) => ({
      id: p.id,
      name: p.name,
      ...readTerms(p.limits),
      expiredAt: p.expires_at,
      siteCount: toCount(counts.get(p.id)),
    })) as z.input<typeof siteSchemas.userProductItem>[],
    total: page.total,
  };
}
