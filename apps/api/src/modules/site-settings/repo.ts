import { edge, type PageQuery, type siteSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { readJson } from '../../db/json-column';
import { paginate } from '../../db/paging';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';

/** What site_options.options holds: the site's options but its rate rules (rows of site_rate_rules). */
export type StoredOptions = Omit<edge.SiteOptions, 'rateRules'>;
type DnsInput = z.infer<typeof siteSettingSchemas.dnsRecordInput>;
/** The tables of a site's own settings rows, each row with its id and its site's. */
type SiteRows = 'site_cache_rules' | 'site_rate_rules' | 'site_error_pages' | 'site_dns_records';

/** The stored options, each option the site never set at its default. */
const storedOptions = edge.siteOptions.omit({ rateRules: true });
const parseOptions = (json: string | undefined): StoredOptions => (json ? readJson('site_options.options', storedOptions, json) : storedOptions.parse({}));
const readRule = (rule: string) => readJson('site_cache_rules.rule', edge.cacheRule, rule);
const dnsValues = (r: DnsInput) => ({ name: r.name, type: r.type, value: r.value, ttl: r.ttl, domain_ids: JSON.stringify([...new Set(r.domainIDs)]), memo: r.memo });

/**
 * The settings of a site the caller reached: its cache rules, compression, options, rate rules, error pages, DNS
 * records and cache tasks. A rule, page or record of another site answers 101003/404 as if it did not exist.
 * `db` may be a transaction.
 */
export function siteSettingsRepo(db: Db, site: ReachedSite) {
  const rows = (table: SiteRows) => db.selectFrom(table).where('site_id', '=', site.id);
  const count = async (table: SiteRows) => toCount((await rows(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n as number);
  const exists = async (table: SiteRows) => (await rows(table).select('id').executeTakeFirst()) !== undefined;
  /** Every one of `ids` must be a row of the site; a foreign id answers 101003/404 (`what` not found) like a missing one. */
  const assertOwned = async (table: SiteRows, ids: number[], what: string) => {
    const owned = await rows(table).select('id').where('id', 'in', ids).execute();
    if (owned.length !== new Set(ids).size) throw notFound(what);
  };
  const removeOwned = async (table: SiteRows, ids: number[], what: string) => {
    await assertOwned(table, ids, what);
    await db.deleteFrom(table).where('site_id', '=', site.id).where('id', 'in', ids).execute();
  };
  const updated = (result: { numUpdatedRows: bigint }, what: string) => {
    if (Number(result.numUpdatedRows) !== 1) throw notFound(what);
  };
  const dnsRecord = async (id: number) => {
    const row = await db.selectFrom('site_dns_records').selectAll().where('site_id', '=', site.id).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('DNS record');
    return row;
  };
  return {
    /** The site's cache rules in the order they were added. */
    cacheRules: async () =>
      (await db.selectFrom('site_cache_rules').select(['id', 'rule']).where('site_id', '=', site.id).orderBy('id').execute()).map((r) => ({ id: r.id, ...readRule(r.rule) })),
    /** The given cache rules of the site, or 101003/404 ("cache rule not found"). */
    async someCacheRules(ids: number[]) {
      const found = await db.selectFrom('site_cache_rules').select(['id', 'rule']).where('site_id', '=', site.id).where('id', 'in', ids).execute();
      if (found.length !== new Set(ids).size) throw notFound('cache rule');
      return found.map((r) => readRule(r.rule));
    },
    cacheRuleCount: () => count('site_cache_rules'),
    addCacheRule: (rule: edge.CacheRule) => db.insertInto('site_cache_rules').values({ site_id: site.id, rule: JSON.stringify(rule), created_at: now() }).execute(),
    updateCacheRule: async (id: number, rule: edge.CacheRule) =>
      updated(await db.updateTable('site_cache_rules').set({ rule: JSON.stringify(rule) }).where('id', '=', id).where('site_id', '=', site.id).executeTakeFirst(), 'cache rule'),
    removeCacheRules: (ids: number[]) => removeOwned('site_cache_rules', ids, 'cache rule'),

    /** Whether the site compresses its answers (a column of the site). */
    gzip: async () => (await db.selectFrom('sites').select('gzip').where('id', '=', site.id).executeTakeFirstOrThrow()).gzip === 1,

    options: async () => parseOptions((await db.selectFrom('site_options').select('options').where('site_id', '=', site.id).executeTakeFirst())?.options),
    saveOptions(options: StoredOptions) {
      const at = now();
      return db
        .insertInto('site_options')
        .values({ site_id: site.id, options: JSON.stringify(options), updated_at: at })
        .onConflict((oc) => oc.column('site_id').doUpdateSet({ options: JSON.stringify(options), updated_at: at }))
        .execute();
    },
    /** The options of the other sites of the site's zone, whoever's they are: the zone's nodes serve them side by side. */
    async zoneNeighbourOptions() {
      const neighbours = await db
        .selectFrom('sites')
        .innerJoin('products', 'products.id', 'sites.product_id')
        .select('sites.id')
        .where('products.zone_id', '=', site.zoneID)
        .where('sites.id', '!=', site.id)
        .execute();
      return [...(await optionsOfSites(db, neighbours.map((n) => n.id))).values()];
    },

    rateRules: () => db.selectFrom('site_rate_rules').select(['id', 'url', 'rate']).where('site_id', '=', site.id).orderBy('id').execute(),
    rateCount: () => count('site_rate_rules'),
    async rateUrlTaken(url: string, except?: number) {
      let q = db.selectFrom('site_rate_rules').select('id').where('site_id', '=', site.id).where('url', '=', url);
      if (except) q = q.where('id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },
    assertRates: (ids: number[]) => assertOwned('site_rate_rules', ids, 'rate rule'),
    addRate(rule: edge.RateRule) {
      const at = now();
      return db.insertInto('site_rate_rules').values({ site_id: site.id, url: rule.url, rate: rule.rate, created_at: at, updated_at: at }).execute();
    },
    updateRate: (id: number, rule: edge.RateRule) =>
      db.updateTable('site_rate_rules').set({ url: rule.url, rate: rule.rate, updated_at: now() }).where('id', '=', id).where('site_id', '=', site.id).execute(),
    removeRates: (ids: number[]) => removeOwned('site_rate_rules', ids, 'rate rule'),

    errorPagesPage: (page: PageQuery) =>
      paginate(db.selectFrom('site_error_pages').selectAll().where('site_id', '=', site.id), { page, sortable: {}, defaultSort: { column: 'status', order: 'asc' } }),
    hasErrorPages: () => exists('site_error_pages'),
    async errorStatusTaken(status: number, except?: number) {
      let q = db.selectFrom('site_error_pages').select('id').where('site_id', '=', site.id).where('status', '=', status);
      if (except) q = q.where('id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },
    addErrorPage(page: edge.ErrorPage) {
      const at = now();
      return db.insertInto('site_error_pages').values({ site_id: site.id, status: page.status, type: page.type, body: page.body, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
    },
    /** Changes one error page of the site (101003/404 when it has none of that id) and answers it. */
    async updateErrorPage(id: number, page: edge.ErrorPage) {
      const set = { status: page.status, type: page.type, body: page.body, updated_at: now() };
      updated(await db.updateTable('site_error_pages').set(set).where('id', '=', id).where('site_id', '=', site.id).executeTakeFirst(), 'error page');
      return db.selectFrom('site_error_pages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    removeErrorPages: (ids: number[]) => removeOwned('site_error_pages', ids, 'error page'),

    dnsRecord,
    dnsRecordsPage(query: PageQuery & { keyword?: string }) {
      let q = db.selectFrom('site_dns_records').selectAll().where('site_id', '=', site.id);
      if (query.keyword) q = q.where((eb) => eb.or([eb('name', 'like', `%${query.keyword}%`), eb('value', 'like', `%${query.keyword}%`)]));
      return paginate(q, { page: query, sortable: {}, defaultSort: { column: 'id', order: 'asc' } });
    },
    hasDnsRecords: () => exists('site_dns_records'),
    async dnsRecordTaken(r: DnsInput, except?: number) {
      let q = db.selectFrom('site_dns_records').select('id').where('site_id', '=', site.id).where('name', '=', r.name).where('type', '=', r.type).where('value', '=', r.value);
      if (except) q = q.where('id', '!=', except);
      return (await q.executeTakeFirst()) !== undefined;
    },
    addDnsRecord(r: DnsInput) {
      const at = now();
      return db.insertInto('site_dns_records').values({ site_id: site.id, ...dnsValues(r), created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
    },
    updateDnsRecord: (id: number, r: DnsInput) =>
      db.updateTable('site_dns_records').set({ ...dnsValues(r), updated_at: now() }).where('id', '=', id).where('site_id', '=', site.id).execute(),
    removeDnsRecords: (ids: number[]) => removeOwned('site_dns_records', ids, 'DNS record'),

    cacheTasksPage: (page: PageQuery) =>
      paginate(db.selectFrom('site_cache_tasks').select(['id', 'type', 'urls', 'command_ids', 'created_at']).where('site_id', '=', site.id), {
        page,
        sortable: {},
        defaultSort: { column: 'id', order: 'desc' },
      }),
    addCacheTask: (task: { type: string; urls: string[]; commandIds: number[]; createdBy: number }) =>
      db
        .insertInto('site_cache_tasks')
        .values({ site_id: site.id, type: task.type, urls: JSON.stringify(task.urls), command_ids: JSON.stringify(task.commandIds), created_by: task.createdBy, created_at: now() })
        .returning(['id', 'type', 'urls', 'command_ids', 'created_at'])
        .executeTakeFirstOrThrow(),
    /** The node commands the site's cache tasks name (by the ids a task keeps). */
    taskCommands: (ids: number[]) => (ids.length ? db.selectFrom('node_commands').select(['id', 'status', 'message']).where('id', 'in', ids).execute() : Promise.resolve([])),
  };
}

/** Unscoped, for the nodes' state: each site's options, rate rules included. */
export async function optionsOfSites(db: Db, siteIds: number[]) {
  if (!siteIds.length) return new Map<number, edge.SiteOptions>();
  const rows = await db.selectFrom('site_options').select(['site_id', 'options']).where('site_id', 'in', siteIds).execute();
  const rates = await db.selectFrom('site_rate_rules').select(['site_id', 'url', 'rate']).where('site_id', 'in', siteIds).orderBy('id').execute();
  return new Map(
    siteIds.map((id) => [
      id,
      {
        ...parseOptions(rows.find((r) => r.site_id === id)?.options),
        rateRules: rates.filter((r) => r.site_id === id).map(({ url, rate }) => ({ url, rate })),
      },
    ]),
  );
}

/** Unscoped, for the nodes' state: each site's compression and cache rules (in the order they were added). */
export async function cacheSettingsOfSites(db: Db, siteIds: number[]) {
  const gzip = new Map((await db.selectFrom('sites').select(['id', 'gzip']).where('id', 'in', siteIds).execute()).map((s) => [s.id, s.gzip === 1]));
  const rules = await db.selectFrom('site_cache_rules').select(['site_id', 'rule']).where('site_id', 'in', siteIds).orderBy('id').execute();
  return new Map(siteIds.map((id) => [id, { gzip: gzip.get(id), cacheRules: rules.filter((r) => r.site_id === id).map((r) => readRule(r.rule)) }]));
}
