import type { PageQuery } from '@edgekeep/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { now, readsChangeAt, type Db } from '../../db';
import { readJson, stringList } from '../../db/json-column';
import { paginate } from '../../db/paging';
import type { CertificateTable } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';

type CertificateRow = Selectable<CertificateTable>;

/** A certificate's status now; a read being recorded through `db` is told when it changes (see `readsChangeAt`). */
function statusOf(db: Db, c: Pick<CertificateTable, 'not_before' | 'not_after'>, at = now()) {
  const next = [c.not_before, c.not_after].find((t) => t >= at);
  if (next) readsChangeAt(db, Date.parse(next));
  return c.not_after < at ? ('expired' as const) : c.not_before > at ? ('notYetValid' as const) : ('valid' as const);
}

/** Certificates as the console lists them, with the domains (of any site) that serve each. */
async function toItems(db: Db, rows: CertificateRow[]) {
  const bound = rows.length ? await db.selectFrom('domains').select(['id', 'name', 'certificate_id']).where('certificate_id', 'in', rows.map((r) => r.id)).orderBy('name').execute() : [];
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    subject: c.subject,
    names: readJson('certificates.names', stringList, c.names),
    issuer: c.issuer,
    notBefore: c.not_before,
    notAfter: c.not_after,
    status: statusOf(db, c),
    domains: bound.filter((d) => d.certificate_id === c.id).map((d) => ({ id: d.id, name: d.name })),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  }));
}

/**
 * The certificates of a site the caller reached. A certificate of another site answers 101003/404 ("certificate not
 * found") as if it did not exist; it is bound only to domains the domains repository read.
 */
export function certificatesRepo(db: Db, site: ReachedSite) {
  const certificates = () => db.selectFrom('certificates').where('site_id', '=', site.id);
  const get = async (id: number) => {
    const row = await certificates().selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('certificate');
    return row;
  };
  return {
    get,
    item: async (row: CertificateRow) => (await toItems(db, [row]))[0],

    async page(query: PageQuery & { name?: string }) {
      let q = certificates().selectAll();
      if (query.name) q = q.where('name', 'like', `%${query.name}%`);
      const page = await paginate(q, { page: query, sortable: { name: 'name', notAfter: 'not_after', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
      return { data: await toItems(db, page.data), total: page.total };
    },

    names: () => certificates().select(['id', 'name']).orderBy('name').execute(),

    insert: (values: Omit<Insertable<CertificateTable>, 'site_id' | 'created_at' | 'updated_at'>) => {
      const at = now();
      return db.insertInto('certificates').values({ site_id: site.id, ...values, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
    },

    update: (id: number, values: Updateable<CertificateTable>) =>
      db.updateTable('certificates').set({ ...values, updated_at: now() }).where('id', '=', id).where('site_id', '=', site.id).execute(),

    /** Serves the certificate on exactly these domains, taking it off every other. */
    bind: (cert: CertificateRow, domains: { id: number }[]) =>
      db.transaction().execute(async (trx) => {
        await trx.updateTable('domains').set({ certificate_id: null }).where('certificate_id', '=', cert.id).execute();
        if (domains.length) await trx.updateTable('domains').set({ certificate_id: cert.id, updated_at: now() }).where('id', 'in', domains.map((d) => d.id)).execute();
      }),

    /** The names of the domains that serve any of these certificates. */
    servedBy: async (ids: number[]) => (await db.selectFrom('domains').select('name').where('certificate_id', 'in', ids).execute()).map((d) => d.name),

    remove: (ids: number[]) => db.deleteFrom('certificates').where('site_id', '=', site.id).where('id', 'in', ids).execute(),
  };
}

/** Unscoped: the sites whose domains serve the certificate; each carries it in its part of the nodes' state. */
export const sitesServing = (db: Db, certificateId: number) =>
  db
    .selectFrom('domains')
    .innerJoin('sites', 'sites.id', 'domains.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select(['sites.id', 'products.zone_id as zoneID'])
    .distinct()
    .where('domains.certificate_id', '=', certificateId)
    .execute();

/** Unscoped, for the edge state: these certificates' chains and sealed keys, by id. */
export const sealedCertificates = (db: Db, ids: number[]) => db.selectFrom('certificates').select(['id', 'chain', 'key_sealed']).where('id', 'in', ids).orderBy('id').execute();
