import type { clientDomainSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { toCount, type Db } from '../../db';
import { keptPage } from '../../db/kept-order';
import type { ReachedSiteIds } from '../sites/repo';

type Query = z.infer<typeof clientDomainSchemas.clientDomainsQuery>;

const SITE_COLUMNS = ['sites.name as site_name', 'sites.status as site_status', 'sites.cname', 'sites.user_id', 'owner.email as user_email'] as const;
/** What a list item shows of a domain: a page reads these alone (reading 20 rows' every column cost 4× their lookups). */
const ITEM_COLUMNS = ['domains.id', 'domains.name', 'domains.status', 'domains.protocol', 'domains.force_ssl', 'domains.tags', 'domains.site_id', 'domains.created_at', 'domains.updated_at'] as const;

/**
 * The domains of the sites a caller reaches, across them, each with its site and owner. `sites` is the query of
 * their ids the sites repository answers, so the tenant is that repository's.
 */
export function reachedDomainsRepo(db: Db, sites: ReachedSiteIds) {
  const joined = () => db.selectFrom('domains').innerJoin('sites', 'sites.id', 'domains.site_id').innerJoin('accounts as owner', 'owner.id', 'sites.user_id');
  return {
    /** The domains (of those of the sites given, which the caller reached; named like the keyword), by name when asked. */
    withSite(filter: { siteIds?: number[]; keyword?: string; byName?: boolean } = {}) {
      let q = joined().selectAll('domains').select(SITE_COLUMNS).where('domains.site_id', 'in', sites);
      if (filter.siteIds) q = q.where('domains.site_id', 'in', filter.siteIds);
      if (filter.keyword) q = q.where('domains.name', 'like', `%${filter.keyword.toLowerCase()}%`);
      return (filter.byName ? q.orderBy('domains.name') : q).execute();
    },

    /**
     * A page of the domains. The ids of the whole list in its order are read from the domains alone (the sites
     * joined only to sort by their name) and kept until a domain of one of the sites changes (the versions the
     * database raises per site); the page's rows come with their sites by id, in the page's order.
     */
    async page(query: Query) {
      let q = db.selectFrom('domains').select('domains.id').where('domains.site_id', 'in', sites);
      if (query.keywords) q = q.where('domains.name', 'like', `%${query.keywords.toLowerCase()}%`);
      if (query.status !== undefined) q = q.where('domains.status', '=', query.status === 1 ? 1 : 0);
      if (query.forceSSL) q = q.where('domains.force_ssl', '=', query.forceSSL === 'true' ? 1 : 0);
      for (const tag of query.tags === undefined ? [] : [query.tags].flat()) q = q.where('domains.tags', 'like', `%${JSON.stringify(tag)}%`);
      const versions = await sites.select('sites.domains_version').orderBy('sites.id').execute();
      const page = await keptPage(db, query.sortBy === 'siteName' ? q.innerJoin('sites', 'sites.id', 'domains.site_id') : q, {
        page: query,
        sortable: { name: 'domains.name', siteName: 'sites.name', createdAt: 'domains.created_at', updatedAt: 'domains.updated_at' },
        defaultSort: { column: 'domains.created_at', order: 'desc' },
        idColumn: 'domains.id',
        version: versions.map((v) => `${v.id}:${v.domains_version}`).join(','),
      });
      const rows = page.ids.length ? await joined().select([...ITEM_COLUMNS, ...SITE_COLUMNS]).where('domains.id', 'in', page.ids).execute() : [];
      const byId = new Map(rows.map((d) => [d.id, d]));
      return { data: page.ids.flatMap((id) => byId.get(id) ?? []), total: page.total };
    },

    /** How many domains the sites have. */
    count: async () => toCount((await db.selectFrom('domains').select((eb) => eb.fn.countAll().as('n')).where('site_id', 'in', sites).executeTakeFirst())?.n as number | undefined),
  };
}
