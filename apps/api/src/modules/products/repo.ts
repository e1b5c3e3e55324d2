import type { PageQuery } from '@edgekeep/contract';
import type { Insertable, Updateable } from 'kysely';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { ProductTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Account } from '../accounts/repo';
import { visibleZones } from '../zones/repo';

type ProductValues = Omit<Insertable<ProductTable>, 'client_id' | 'created_at' | 'updated_at'>;

/**
 * The products a client sees: those on its zones, or, for a sub-client, on the zones assigned to it. Another client's
 * product is not there (reads answer undefined, changes change nothing); whether the caller may change one (it owns
 * the zone) the service checks.
 */
export function productsRepo(deps: AppDeps, actor: Account) {
  const db = deps.db;
  const zoneIds = () => visibleZones(deps, actor).select('zones.id');
  const withSiteCount = () =>
    db
      .selectFrom('products')
      .selectAll('products')
      .select((eb) => eb.selectFrom('sites').select(eb.fn.countAll().as('n')).whereRef('sites.product_id', '=', 'products.id').as('site_count'))
      .where('products.zone_id', 'in', zoneIds());
  return {
    /** A product with the number of sites made from it. */
    get: (id: number) => withSiteCount().where('products.id', '=', id).executeTakeFirst(),

    page: (query: PageQuery & { name?: string }) => {
      let q = withSiteCount();
      if (query.name) q = q.where('products.name', 'like', `%${query.name}%`);
      return paginate(q, { page: query, sortable: { name: 'products.name', createdAt: 'products.created_at' }, defaultSort: { column: 'products.created_at', order: 'desc' }, idColumn: 'products.id' });
    },

    names: () => withSiteCount().orderBy('products.name').execute(),

    /** A new product of the caller, on a zone the service checked it owns; answers its id. */
    async create(values: ProductValues) {
      const at = now();
      return (await db.insertInto('products').values({ ...values, client_id: actor.id, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    },

    update: (id: number, values: Updateable<ProductTable>) =>
      db.updateTable('products').set({ ...values, updated_at: now() }).where('id', '=', id).where('zone_id', 'in', zoneIds()).execute(),

    remove: (id: number) => db.deleteFrom('products').where('id', '=', id).where('zone_id', 'in', zoneIds()).execute(),
  };
}

/** Whether a node group is one of the zone's. */
export const isGroupOfZone = async (db: Db, groupId: number, zoneId: number) =>
  (await db.selectFrom('node_groups').select('id').where('id', '=', groupId).where('zone_id', '=', zoneId).executeTakeFirst()) !== undefined;
