import type { clientDomainSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { reachedDomainsRepo } from './repo';
import { readJson, stringList } from '../../db/json-column';

type Query = z.infer<typeof clientDomainSchemas.clientDomainsQuery>;

/** The domains of the sites the caller reaches (of those of them with this id or owner). */
export const reachedDomains = async (deps: AppDeps, principal: Principal, filter: { siteId?: number; userId?: number } = {}) =>
  reachedDomainsRepo(deps.db, await sitesRepo(deps, principal).ids(filter));

/** A page of the caller's domains (see the repository's page for how the list is kept). */
export async function listDomains(deps: AppDeps, principal: Principal, query: Query) {
  const page = await (await reachedDomains(deps, principal, { siteId: query.siteID, userId: query.userID })).page(query);
  return {
    data: page.data.map((d) => ({
      id: d.id,
      name: d.name,
      status: d.status,
      protocol: d.protocol,
      forceSSL: d.force_ssl === 1,
      tags: readJson('domains.tags', stringList, d.tags),
      siteID: d.site_id,
      siteName: d.site_name,
      siteStatus: d.site_status,
      cname: d.cname,
      userID: d.user_id,
      userEmail: d.user_email,
      createdAt: d.created_at,
      updatedAt: d.updated_at,
    })),
    total: page.total,
  };
}

export async function metaDomains(deps: AppDeps, principal: Principal) {
  const rows = await (await reachedDomains(deps, principal)).withSite({ byName: true });
  return rows.map((d) => ({ id: d.id, name: d.name, siteID: d.site_id }));
}

/** The tags that domains carry, each once, in order. */
export const tagsOf = (domains: { tags: string }[]) => [...new Set(domains.flatMap((d) => readJson('domains.tags', stringList, d.tags)))].sort();

export async function domainTags(deps: AppDeps, principal: Principal) {
  return tagsOf(await (await reachedDomains(deps, principal)).withSite());
}
