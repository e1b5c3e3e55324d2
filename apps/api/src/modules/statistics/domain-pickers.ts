import type { statisticsSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { scopedDomains } from '../client-domains/service';
import { reachableSiteIds } from './scope';
import { readJson, stringList } from '../../db/json-column';

/** The caller's domains (of the sites chosen, each one it reaches), for the filters' pickers. */
async function pickable(deps: AppDeps, principal: Principal, siteIds?: number[]) {
  let q = await scopedDomains(deps, principal);
  if (siteIds?.length) q = q.where('domains.site_id', 'in', await reachableSiteIds(deps, principal, siteIds));
  return q;
}

export async function domainsMeta(deps: AppDeps, principal: Principal, body: z.infer<typeof statisticsSchemas.domainsMetaBody>) {
  let q = await pickable(deps, principal, body.siteIDs);
  if (body.keyword) q = q.where('domains.name', 'like', `%${body.keyword.toLowerCase()}%`);
  const rows = await q.orderBy('domains.name').execute();
  return rows.map((d) => ({ id: d.id, domain: d.name, siteID: d.site_id }));
}

export async function domainsTags(deps: AppDeps, principal: Principal, body: z.infer<typeof statisticsSchemas.domainsTagsBody>) {
  const rows = await (await pickable(deps, principal, body.siteIDs)).execute();
  return [...new Set(rows.flatMap((d) => readJson('domains.tags', stringList, d.tags)))].sort();
}
