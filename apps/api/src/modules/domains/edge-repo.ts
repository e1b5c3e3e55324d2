import type { Db } from '../../db';

/* The domains and origins as the edge state reads them: unscoped, keyed by the sites and domains a node serves. */

/** Unscoped, for the edge state: the enabled domains of these sites. */
export const enabledDomainsOfSites = (db: Db, siteIds: number[]) => db.selectFrom('domains').selectAll().where('site_id', 'in', siteIds).where('status', '=', 1).orderBy('id').execute();

/** Unscoped, for the edge state: the enabled origins of these domains. */
export const enabledOriginsOfDomains = (db: Db, domainIds: number[]) =>
  db.selectFrom('upstreams').selectAll().where('domain_id', 'in', domainIds).where('enabled', '=', 1).orderBy('id').execute();

/** Unscoped, for the edge state: how many domains each of these sites has (those with none left out). */
export const domainCountsOfSites = (db: Db, siteIds: number[]) =>
  db.selectFrom('domains').select((eb) => ['site_id', eb.fn.countAll().as('n')]).where('site_id', 'in', siteIds).groupBy('site_id').execute();
