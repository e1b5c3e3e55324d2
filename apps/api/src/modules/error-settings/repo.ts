import { edge } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';

type Row = Selectable<Database['client_error_pages']>;
type Page = { status: number; type: string; body: string };

export const toItem = (p: Row) => ({ id: p.id, status: p.status, type: p.type as edge.ErrorPage['type'], body: p.body, createdAt: p.created_at, updatedAt: p.updated_at });

const ofClient = (db: Db, clientId: number) => db.selectFrom('client_error_pages').selectAll().where('client_id', '=', clientId);

export async function listPages(db: Db, clientId: number, page: { page: number; pageSize: number }) {
  const result = await paginate(ofClient(db, clientId), { page, sortable: {}, defaultSort: { column: 'status', order: 'asc' } });
  return { data: result.data.map(toItem), total: result.total };
}

export const findPage = (db: Db, clientId: number, id: number) => ofClient(db, clientId).where('id', '=', id).executeTakeFirst();

export const statusTaken = async (db: Db, o: { clientId: number; status: number; except?: number }) => {
  let q = ofClient(db, o.clientId).where('status', '=', o.status);
  if (o.except) q = q.where('id', '!=', o.except);
  return (await q.executeTakeFirst()) !== undefined;
};

export async function insertPage(db: Db, clientId: number, page: Page) {
  const at = now();
  return db.insertInto('client_error_pages').values({ client_id: clientId, ...page, created_at: at, updated_at: at }).returningAll().executeTakeFirstOrThrow();
}

export async function updatePage(db: Db, o: { clientId: number; id: number; page: Page }) {
  await db.updateTable('client_error_pages').set({ ...o.page, updated_at: now() }).where('id', '=', o.id).where('client_id', '=', o.clientId).execute();
  return (await findPage(db, o.clientId, o.id))!;
}

export async function removePages(db: Db, clientId: number, ids: number[]) {
  const owned = await ofClient(db, clientId).select('id').where('id', 'in', ids).execute();
  if (owned.length !== new Set(ids).size) return false;
  await db.deleteFrom('client_error_pages').where('client_id', '=', clientId).where('id', 'in', ids).execute();
  return true;
}

/** The default error pages of the client that owns the zone, as the edge takes them. */
export async function defaultPagesOfZone(db: Db, zoneId: number): Promise<edge.ErrorPage[]> {
  const rows = await db
    .selectFrom('client_error_pages')
    .innerJoin('zones', 'zones.client_id', 'client_error_pages.client_id')
    .select(['client_error_pages.status', 'client_error_pages.type', 'client_error_pages.body'])
    .where('zones.id', '=', zoneId)
    .orderBy('client_error_pages.status')
    .execute();
  return rows.flatMap((r) => {
    const page = edge.errorPage.safeParse(r);
    return page.success ? [page.data] : [];
  });
}

/** A site's own pages, and the defaults for the statuses it has none for. */
export const withDefaultPages = (own: edge.ErrorPage[], defaults: edge.ErrorPage[]) => [
  ...own,
  ...defaults.filter((d) => !own.some((p) => p.status === d.status)),
].sort((a, b) => a.status - b.status);

/** Unscoped, for the edge state: the own error pages of these sites, by status. */
export const sitesErrorPages = (db: Db, siteIds: number[]) =>
  db.selectFrom('site_error_pages').select(['site_id', 'status', 'type', 'body']).where('site_id', 'in', siteIds).orderBy('status').execute();
