import type { clientDomainSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { keptPage } from '../../db/kept-order';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { readJson, stringList } from '../../db/json-column';

type Query = z.infer<typeof clientDomainSchemas.clientDomainsQuery>;

const joined = (deps: AppDeps) =>
  deps.db.selectFrom('domains').innerJoin('sites', 'sites.id', 'domains.site_id').innerJoin('accounts as owner', 'owner.id', 'sites.user_id');
const SITE_COLUMNS = ['sites.name as site_name', 'sites.status as site_status', 'sites.cname', 'sites.user_id', 'owner.email as user_email'] as const;
/** What a list item shows of a domain: a page reads these alone (reading 20 rows' every column cost 4× their lookups). */
const ITEM_COLUMNS = ['domains.id', 'domains.name', 'domains.status', 'domains.protocol', 'domains.force_ssl', 'domains.tags', 'domains.site_id', 'domains.created_at', 'domains.updated_at'] as const;

/** Domains with their site and owner. */
const withSite = (deps: AppDeps) => joined(deps).selectAll('domains').select(SITE_COLUMNS);

/** Domains of the sites the caller reaches, with their site and owner. */
export async function scopedDomains(deps: AppDeps, principal: Principal) {
  const siteIds = (await sitesRepo(deps, principal).query()).clearSelect().select('sites.id');
  return withSite(deps).where('domains.site_id', 'in', siteIds);
}

/**
 * A page of the caller's domains. The ids of the whole list in its order are read from the domains alone (the sites
 * joined only to sort by their name) and kept until a domain of one of the caller's sites changes (the versions the
 * database raises per site); the page's rows come with their sites by id.
 */
export async function listDomains(deps: AppDeps, principal: Principal, query: Query) {
  let sites = (await sitesRepo(deps, principal).query()).clearSelect();
  if (query.siteID) sites = sites.where('sites.id', '=', query.siteID);
  if (query.userID) sites = sites.where('sites.user_id', '=', query.userID);
  let q = deps.db.selectFrom('domains').select('domains.id').where('domains.site_id', 'in', sites.select('sites.id'));
  if (query.keywords) q = q.where('domains.name', 'like', `%${query.keywords.toLowerCase()}%`);
  if (query.status !== undefined) q = q.where('domains.status', '=', query.status === 1 ? 1 : 0);
  if (query.forceSSL) q = q.where('domains.force_ssl', '=', query.forceSSL === 'true' ? 1 : 0);
  for (const tag of query.tags === undefined ? [] : [query.tags].flat()) q = q.where('domains.tags', 'like', `%${JSON.stringify(tag)}%`);
  const versions = await sites.select(['sites.id', 'sites.domains_version']).orderBy('sites.id').execute();
  const page = await keptPage(deps.db, query.sortBy === 'siteName' ? q.innerJoin('sites', 'sites.id', 'domains.site_id') : q, {
    page: query,
    sortable: { name: 'domains.name', siteName: 'sites.name', createdAt: 'domains.created_at', updatedAt: 'domains.updated_at' },
    defaultSort: { column: 'domains.created_at', order: 'desc' },
    idColumn: 'domains.id',
    version: versions.map((v) => `${v.id}:${v.domains_version}`).join(','),
  });
  const ids = page.ids;
  const rows = ids.length ? await joined(deps).select([...ITEM_COLUMNS, ...SITE_COLUMNS]).where('domains.id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((d) => [d.id, d]));
  return {
    data: ids.flatMap((id) => byId.get(id) ?? []).map((d) => ({
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
  const rows = await (await scopedDomains(deps, principal)).orderBy('domains.name').execute();
  return rows.map((d) => ({ id: d.id, name: d.name, siteID: d.site_id }));
}

export async function domainTags(deps: AppDeps, principal: Principal) {
  const rows = await (await scopedDomains(deps, principal)).execute();
  return [...new Set(rows.flatMap((d) => readJson('domains.tags', stringList, d.tags)))].sort();
}
