import type { domainSchemas, PageQuery } from '@edgekeep/contract';
import type { Selectable, Updateable } from 'kysely';
import type { z } from 'zod';
import { now, readsChangeAt, toCount, type Db } from '../../db';
import { readJson, stringList } from '../../db/json-column';
import { keptPage } from '../../db/kept-order';
import { paginate } from '../../db/paging';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import { notFound } from '../../http/errors';
import { readTerms } from '../products/terms';
import type { ReachedSite } from '../sites/repo';
import { portMapOf, toUpstream, upstreamRow, type UpstreamInput } from './rows';

type DomainRow = Selectable<DomainTable>;
type CertStatus = (typeof domainSchemas.CERT_STATUSES)[number];

export type NewDomain = {
  name: string;
  status: 0 | 1;
  protocol: 'http' | 'https' | 'follow';
  upstreams: UpstreamInput[];
  tags?: string[];
  balance?: 'round_robin' | 'ip_hash' | 'least_conn';
  portMap?: string;
};

/** none without a certificate; expired once its not-after has passed. */
async function certStatuses(db: Db, rows: DomainRow[]) {
  const ids = [...new Set(rows.map((r) => r.certificate_id).filter((x): x is number => x !== null))];
  const certs = ids.length ? await db.selectFrom('certificates').select(['id', 'not_after']).where('id', 'in', ids).execute() : [];
  const at = new Date().toISOString();
  const expiries = certs.filter((c) => c.not_after > at).map((c) => Date.parse(c.not_after));
  // a valid certificate's domains read 'expired' from its expiry on
  if (expiries.length) readsChangeAt(db, Math.min(...expiries));
  return (d: DomainRow): CertStatus => {
    const c = certs.find((x) => x.id === d.certificate_id);
    if (!c) return 'none';
    return c.not_after > at ? 'valid' : 'expired';
  };
}

async function toSettings(db: Db, rows: DomainRow[]) {
  const certOf = await certStatuses(db, rows);
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    status: d.status,
    scheme: d.protocol,
    portMap: portMapOf(d),
    forceSSL: d.force_ssl === 1,
    hsts: d.hsts === 1,
    autoSSL: d.auto_ssl === 1,
    balance: d.balance,
    certStatus: certOf(d),
    tags: readJson('domains.tags', stringList, d.tags),
  }));
}

async function toItems(db: Db, rows: DomainRow[]) {
  const ups = rows.length ? await db.selectFrom('upstreams').selectAll().where('domain_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [];
  const certOf = await certStatuses(db, rows);
  return rows.map((d) => ({
    id: d.id,
    siteID: d.site_id,
    name: d.name,
    status: d.status,
    protocol: d.protocol,
    forceSSL: d.force_ssl === 1,
    hsts: d.hsts === 1,
    tags: readJson('domains.tags', stringList, d.tags),
    cnameStatus: d.cname_status,
    cnameCheckedAt: d.cname_checked_at,
    autoSSL: d.auto_ssl === 1,
    balance: d.balance,
    portMap: portMapOf(d),
    certificateID: d.certificate_id,
    certStatus: certOf(d),
    upstreams: ups.filter((u) => u.domain_id === d.id).map(toUpstream),
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  }));
}

/**
 * The layer-7 domains of a site the caller reached, and their origins. A domain of another site answers 101003/404
 * ("domain not found") as if it did not exist; an origin is reached only through a domain `get` or `some` read.
 * `db` may be a transaction.
 */
export function domainsRepo(db: Db, site: ReachedSite) {
  const domains = () => db.selectFrom('domains').where('site_id', '=', site.id);
  const get = async (id: number) => {
    const d = await domains().selectAll().where('id', '=', id).executeTakeFirst();
    if (!d) throw notFound('domain');
    return d;
  };
  /** Every one of `ids` must be a domain of the site; a foreign id answers like a missing one. */
  const some = async (ids: number[]) => {
    const unique = [...new Set(ids)];
    const rows = await domains().selectAll().where('id', 'in', unique).orderBy('id').execute();
    if (rows.length !== unique.length) throw notFound('domain');
    return rows;
  };
  const ids = (rows: DomainRow[]) => rows.map((d) => d.id);
  return {
    get,
    some,
    item: async (id: number) => (await toItems(db, [await get(id)]))[0],
    settingsItem: async (id: number) => (await toSettings(db, [await get(id)]))[0],
    all: () => domains().selectAll().orderBy('id').execute(),

    /**
     * A page of the site's domains. Unless it is filtered by the certificates' validity (which changes with the
     * time), the ids of the whole list in its order are kept until a domain of the site changes (the site's version,
     * raised by the database) and the page's rows are read by id.
     */
    async page(query: z.infer<typeof domainSchemas.domainsQuery>) {
      let q = domains();
      if (query.keywords) q = q.where('name', 'like', `%${query.keywords.toLowerCase()}%`);
      for (const tag of query.tags ?? []) q = q.where('tags', 'like', `%${JSON.stringify(tag)}%`);
      if (query.cnameStatuses?.length) q = q.where('cname_status', 'in', query.cnameStatuses);
      if (query.forceSSL !== undefined) q = q.where('force_ssl', '=', query.forceSSL ? 1 : 0);
      if (query.certStatus === 'none') q = q.where('certificate_id', 'is', null);
      if (query.createdStart) q = q.where('created_at', '>=', query.createdStart);
      if (query.createdEnd) q = q.where('created_at', '<=', query.createdEnd);
      if (query.updatedStart) q = q.where('updated_at', '>=', query.updatedStart);
      if (query.updatedEnd) q = q.where('updated_at', '<=', query.updatedEnd);
      const sorting = {
        sortable: { name: 'name', status: 'status', cnameStatus: 'cname_status', createdAt: 'created_at', updatedAt: 'updated_at' },
        defaultSort: { column: 'created_at', order: 'desc' as const },
      };
      if (query.certStatus === 'valid' || query.certStatus === 'expired') {
        const certs = db.selectFrom('certificates').select('id').where('not_after', query.certStatus === 'valid' ? '>' : '<=', new Date().toISOString());
        const page = await paginate(q.selectAll().where('certificate_id', 'in', certs), { page: query, ...sorting });
        return { data: await toItems(db, page.data), total: page.total };
      }
      const page = await keptPage(db, q.select('id'), { page: query, ...sorting, version: `${site.id}:${site.domainsVersion}` });
      const rows = page.ids.length ? await db.selectFrom('domains').selectAll().where('id', 'in', page.ids).execute() : [];
      const byId = new Map(rows.map((d) => [d.id, d]));
      return { data: await toItems(db, page.ids.flatMap((id) => byId.get(id) ?? [])), total: page.total };
    },

    async settingsPage(query: PageQuery & { domainName?: string }) {
      let q = domains().selectAll();
      if (query.domainName) q = q.where('name', 'like', `%${query.domainName.toLowerCase()}%`);
      const page = await paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'name', order: 'asc' } });
      return { data: await toSettings(db, page.data), total: page.total };
    },

    names(keyword?: string) {
      let q = domains().select(['id', 'name']);
      if (keyword) q = q.where('name', 'like', `%${keyword.toLowerCase()}%`);
      return q.orderBy('name').orderBy('id').execute();
    },

    /** The site's domains among these ids, by name; an id of no domain of the site is left out. */
    among: (domainIds: number[]) => domains().select(['id', 'name']).where('id', 'in', domainIds).orderBy('name').execute(),

    /** Whether an enabled domain of the site serves a certificate. */
    servesHttps: async () => (await domains().select('id').where('status', '=', 1).where('certificate_id', 'is not', null).executeTakeFirst()) !== undefined,

    /** The ids of the site's domains of these names. */
    idsNamed: async (names: string[]) => (await domains().select('id').where('name', 'in', names).execute()).map((r) => r.id),

    /** The tag lists of the site's domains. */
    tags: async () => (await domains().select('tags').execute()).map((r) => readJson('domains.tags', stringList, r.tags)),

    /** How many layer-4 ports the site has. */
    async l4PortCount() {
      const ports = await db.selectFrom('l4_ports').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', site.id).executeTakeFirst();
      return toCount(ports?.n as number);
    },

    /** The domain limit of the site's product. */
    async productDomainLimit() {
      const product = await db.selectFrom('products').select('limits').where('id', '=', site.productID).executeTakeFirstOrThrow();
      return readTerms(product.limits).domainLimit;
    },

    /** New domains, each with its origins, in one transaction; their items in the order made. */
    async insert(entries: NewDomain[]) {
      const at = now();
      const made = await db.transaction().execute(async (trx) => {
        const out: number[] = [];
        for (const e of entries) {
          const d = await trx
            .insertInto('domains')
            .values({
              site_id: site.id,
              name: e.name,
              status: e.status,
              protocol: e.protocol,
              force_ssl: 0,
              hsts: 0,
              tags: JSON.stringify(e.tags ?? []),
              // follow reaches the origin on the port the client used: it comes with port mapping on
              ...(e.protocol === 'follow' ? { port_map: JSON.stringify({ enabled: true, rules: [] }) } : {}),
              ...(e.portMap ? { port_map: e.portMap } : {}),
              ...(e.balance ? { balance: e.balance } : {}),
              created_at: at,
              updated_at: at,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx.insertInto('upstreams').values(e.upstreams.map((u) => upstreamRow(d.id, u))).execute();
          out.push(d.id);
        }
        return out;
      });
      return toItems(db, await db.selectFrom('domains').selectAll().where('id', 'in', made).orderBy('id').execute());
    },

    /** Changes the given domains of the site; they count as updated. */
    set: (domainIds: number[], changes: Updateable<DomainTable>) =>
      db.updateTable('domains').set({ ...changes, updated_at: now() }).where('site_id', '=', site.id).where('id', 'in', domainIds).execute(),

    /** What the last DNS look-up found for a domain (not a change of the domain). */
    setCname: (id: number, status: 'pending' | 'active' | 'inactive', at: string) =>
      db.updateTable('domains').set({ cname_status: status, cname_checked_at: at }).where('site_id', '=', site.id).where('id', '=', id).execute(),

    remove: (domainIds: number[]) => db.deleteFrom('domains').where('site_id', '=', site.id).where('id', 'in', domainIds).execute(),

    /** The origins of the given domains (as `get` or `some` read them), in the order they were added. */
    upstreamsOf: (rows: DomainRow[]) => db.selectFrom('upstreams').selectAll().where('domain_id', 'in', ids(rows)).orderBy('id').execute(),

    /** Replaces the origins of each of the given domains by the same list, in one transaction. */
    replaceUpstreams: (rows: DomainRow[], upstreams: UpstreamInput[]) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('upstreams').where('domain_id', 'in', ids(rows)).execute();
        await trx.insertInto('upstreams').values(ids(rows).flatMap((id) => upstreams.map((u) => upstreamRow(id, u)))).execute();
        await trx.updateTable('domains').set({ updated_at: now() }).where('site_id', '=', site.id).where('id', 'in', ids(rows)).execute();
      }),

    /** Points the given domains' origins on `oldHost` at `newHost`; answers how many changed. */
    renameUpstreamHost: async (rows: DomainRow[], oldHost: string, newHost: string) =>
      Number((await db.updateTable('upstreams').set({ host: newHost }).where('domain_id', 'in', ids(rows)).where('host', '=', oldHost).executeTakeFirst()).numUpdatedRows),

    /** The origins of one domain of the site, as `get` read it. */
    upstreams(domain: DomainRow) {
      const q = db.selectFrom('upstreams').selectAll().where('domain_id', '=', domain.id);
      return {
        async page(query: PageQuery & { keyword?: string }) {
          const matching = query.keyword ? q.where('host', 'like', `%${query.keyword.toLowerCase()}%`) : q;
          const page = await paginate(matching, { page: query, sortable: { host: 'host', port: 'port', weight: 'weight' }, defaultSort: { column: 'id', order: 'asc' } });
          return { data: page.data.map(toUpstream), total: page.total };
        },
        get: (id: number) => q.where('id', '=', id).executeTakeFirst(),
        add: async (upstreams: UpstreamInput[]) => (await db.insertInto('upstreams').values(upstreams.map((u) => upstreamRow(domain.id, u))).returningAll().execute()).map(toUpstream),
        update: (id: number, values: Updateable<UpstreamTable>) => db.updateTable('upstreams').set(values).where('id', '=', id).where('domain_id', '=', domain.id).execute(),
        /** How many of them were removed. */
        remove: async (upstreamIds: number[]) =>
          Number((await db.deleteFrom('upstreams').where('domain_id', '=', domain.id).where('id', 'in', upstreamIds).executeTakeFirst()).numDeletedRows),
        /** How many enabled origins the domain keeps. */
        async enabledLeft() {
          const left = await db.selectFrom('upstreams').select((eb) => eb.fn.countAll().as('n')).where('domain_id', '=', domain.id).where('enabled', '=', 1).executeTakeFirst();
          return toCount(left?.n as number);
        },
      };
    },
  };
}

/** The count of the domains of the sites made from a client's products. */
const clientDomainsCounted = (db: Db, clientId: number) =>
  db
    .selectFrom('domains')
    .innerJoin('sites', 'sites.id', 'domains.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('products.client_id', '=', clientId);

/** Unscoped, for the licence: how many domains the sites made from a client's products have. */
export const clientDomainCount = async (db: Db, clientId: number) => toCount((await clientDomainsCounted(db, clientId).executeTakeFirst())?.n as number);

/** Unscoped, for the licence: how many domains with automatic certificates on the sites made from a client's products have. */
export const clientAutoSSLCount = async (db: Db, clientId: number) =>
  toCount((await clientDomainsCounted(db, clientId).where('domains.auto_ssl', '=', 1).executeTakeFirst())?.n as number);

/** Unscoped, for the ownership checks: enabled names of sites not `ownerId`'s under these registered domains, with their zones. */
export const enabledNamesOfOthersUnder = (db: Db, ownerId: number, domains: string[]) =>
  db
    .selectFrom('domains')
    .innerJoin('sites', 'sites.id', 'domains.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['domains.id', 'domains.name', 'products.zone_id'])
    .where('sites.user_id', '!=', ownerId)
    .where('domains.status', '=', 1)
    .where((eb) => eb.or(domains.flatMap((d) => [eb('domains.name', '=', d), eb('domains.name', 'like', `%.${d}`)])))
    .execute();

/** Unscoped, for the ownership checks: the enabled domains of these names (but `exceptIds`), with their sites' owners. */
export function enabledDomainsNamed(db: Db, names: string[], exceptIds?: number[]) {
  const q = db.selectFrom('domains').innerJoin('sites', 'sites.id', 'domains.site_id').select(['domains.name', 'sites.user_id']).where('domains.name', 'in', names).where('domains.status', '=', 1);
  return (exceptIds?.length ? q.where('domains.id', 'not in', exceptIds) : q).execute();
}

/** Unscoped (the caller reached the sites): the names and tags of the domains of these sites. */
export const domainTagsOfSites = async (db: Db, siteIds: number[]) =>
  (await db.selectFrom('domains').select(['name', 'tags']).where('site_id', 'in', siteIds).execute()).map((d) => ({ name: d.name, tags: readJson('domains.tags', stringList, d.tags) }));

/** Unscoped, for a proven takeover: disables these domains, whoever's they are. */
export const disableDomains = (db: Db, ids: number[], at: string) => db.updateTable('domains').set({ status: 0, updated_at: at }).where('id', 'in', ids).execute();
