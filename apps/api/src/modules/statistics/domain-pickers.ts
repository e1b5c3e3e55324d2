import type { statisticsSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachedDomains, tagsOf } from '../client-domains/service';
import { reachableSiteIds } from './scope';

/** The caller's domains (of the sites chosen, each one it reaches; named like the keyword), for the filters' pickers. */
async function pickable(deps: AppDeps, principal: Principal, filter: { siteIds?: number[]; keyword?: string; byName?: boolean }) {
  const siteIds = filter.siteIds?.length ? await reachableSiteIds(deps, principal, filter.siteIds) : undefined;
  return (await reachedDomains(deps, principal)).withSite({ ...filter, siteIds });
}

export async function domainsMeta(deps: AppDeps, principal: Principal, body: z.infer<typeof statisticsSchemas.domainsMetaBody>) {
  const rows = await pickable(deps, principal, { siteIds: body.siteIDs, keyword: body.keyword, byName: true });
  return rows.map((d) => ({ id: d.id, domain: d.name, siteID: d.site_id }));
}

export async function domainsTags(deps: AppDeps, principal: Principal, body: z.infer<typeof statisticsSchemas.domainsTagsBody>) {
  return tagsOf(await pickable(deps, principal, { siteIds: body.siteIDs }));
}
