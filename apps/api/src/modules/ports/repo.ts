import type { PageQuery } from '@edgekeep/contract';
import type { Selectable, Updateable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { L4PortTable, L4UpstreamTable } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';
import { l4UpstreamRow, toL4Upstream, type L4UpstreamInput } from './rows';

export type PortRow = Selectable<L4PortTable>;

async function toPortItems(db: Db, rows: PortRow[]) {
  const ups = rows.length ? await db.selectFrom('l4_upstreams').selectAll().where('port_id', 'in', rows.map((r) => r.id)).orderBy('id').execute() : [];
  return rows.map((p) => ({
    id: p.id,
    siteID: p.site_id,
    port: p.port,
    protocol: 'tcp' as const,
    portType: 4 as const,
    upstreams: ups.filter((u) => u.port_id === p.id).map(toL4Upstream),
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  }));
}

/**
 * The layer-4 ports of a site the caller reached, and their origins. A port of another site answers 101003 as
 * if it did not exist; an origin is reached only through its port. `db` may be a transaction.
 */
export function portsRepo(db: Db, site: ReachedSite) {
  const port = async (portId: number) => {
    const p = await db.selectFrom('l4_ports').selectAll().where('id', '=', portId).where('site_id', '=', site.id).executeTakeFirst();
    if (!p) throw notFound('port');
    return p;
  };
  return {
    /** One port of the site as its row, or 101003/404. */
    get: port,
    item: async (portId: number) => (await toPortItems(db, [await port(portId)]))[0],

    async page(query: PageQuery) {
      const q = db.selectFrom('l4_ports').selectAll().where('site_id', '=', site.id);
      const page = await paginate(q, { page: query, sortable: { port: 'port', createdAt: 'created_at', updatedAt: 'updated_at' }, defaultSort: { column: 'port', order: 'asc' } });
      return { data: await toPortItems(db, page.data), total: page.total };
    },

    /** Which of `ports` a layer-4 port of the site's zone (other than `exceptId`) already uses. */
    async takenInZone(ports: number[], exceptId?: number) {
      let q = db
        .selectFrom('l4_ports')
        .innerJoin('sites', 'sites.id', 'l4_ports.site_id')
        .innerJoin('products', 'products.id', 'sites.product_id')
        .select('l4_ports.port')
        .where('products.zone_id', '=', site.zoneID)
        .where('l4_ports.port', 'in', ports);
      if (exceptId) q = q.where('l4_ports.id', '!=', exceptId);
      return (await q.execute()).map((r) => r.port);
    },

    /** How many layer-7 domains the site has. */
    async domainCount() {
      const row = await db.selectFrom('domains').select((eb) => eb.fn.countAll().as('n')).where('site_id', '=', site.id).executeTakeFirst();
      return toCount(row?.n as number);
    },

    /** New ports, each with its origins, in one transaction; their items in port order. */
    async insert(entries: { port: number; upstreams: L4UpstreamInput[] }[]) {
      const at = now();
      const ids = await db.transaction().execute(async (trx) => {
        const made: number[] = [];
        for (const e of entries) {
          const p = await trx.insertInto('l4_ports').values({ site_id: site.id, port: e.port, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('l4_upstreams').values(e.upstreams.map((u) => l4UpstreamRow(p.id, u, at))).execute();
          made.push(p.id);
        }
        return made;
      });
      return toPortItems(db, await db.selectFrom('l4_ports').selectAll().where('id', 'in', ids).orderBy('port').execute());
    },

    setPort: (portId: number, value: number) => db.updateTable('l4_ports').set({ port: value, updated_at: now() }).where('id', '=', portId).where('site_id', '=', site.id).execute(),

    remove: (ids: number[]) => db.deleteFrom('l4_ports').where('site_id', '=', site.id).where('id', 'in', ids).execute(),

    /** The origins of one of the site's ports, as `get` read it. */
    upstreams(p: PortRow) {
      const portId = p.id;
      const q = db.selectFrom('l4_upstreams').selectAll().where('port_id', '=', portId);
      return {
        async page(query: PageQuery & { keyword?: string }) {
          const matching = query.keyword ? q.where('host', 'like', `%${query.keyword.toLowerCase()}%`) : q;
          const page = await paginate(matching, {
            page: query,
            sortable: { host: 'host', port: 'port', weight: 'weight', createdAt: 'created_at' },
            defaultSort: { column: 'id', order: 'asc' },
          });
          return { data: page.data.map(toL4Upstream), total: page.total };
        },
        get: (id: number) => q.where('id', '=', id).executeTakeFirst(),
        add: async (upstreams: L4UpstreamInput[]) =>
          (await db.insertInto('l4_upstreams').values(upstreams.map((u) => l4UpstreamRow(portId, u, now()))).returningAll().execute()).map(toL4Upstream),
        update: (id: number, values: Updateable<L4UpstreamTable>) => db.updateTable('l4_upstreams').set(values).where('id', '=', id).where('port_id', '=', portId).execute(),
        /** How many of them were removed. */
        remove: async (ids: number[]) => Number((await db.deleteFrom('l4_upstreams').where('port_id', '=', portId).where('id', 'in', ids).executeTakeFirst()).numDeletedRows),
        /** How many enabled origins that are not backups it keeps. */
        async primaryLeft() {
          const left = await db
            .selectFrom('l4_upstreams')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('port_id', '=', portId)
            .where('enabled', '=', 1)
            .where('backup', '=', 0)
            .executeTakeFirst();
          return toCount(left?.n as number);
        },
      };
    },
  };
}

/**
 * Unscoped, for the nodes' desired state: the layer-4 ports of the given sites with their enabled origins, as the
 * node takes them.
 */
export async function l4PortsOfSites(db: Db, siteIds: number[]) {
  const bySite = new Map<number, { port: number; origins: { host: string; port: number; weight: number; backup: boolean; maxFails: number; failTimeout: number }[] }[]>();
  if (!siteIds.length) return bySite;
  const ports = await db.selectFrom('l4_ports').selectAll().where('site_id', 'in', siteIds).orderBy('port').execute();
  const ups = ports.length
    ? await db.selectFrom('l4_upstreams').selectAll().where('port_id', 'in', ports.map((p) => p.id)).where('enabled', '=', 1).orderBy('id').execute()
    : [];
  for (const p of ports) {
    const origins = ups
      .filter((u) => u.port_id === p.id)
      .map((u) => ({ host: u.host, port: u.port, weight: u.weight, backup: u.backup === 1, maxFails: u.max_fails, failTimeout: u.fail_timeout }));
    if (!origins.some((o) => !o.backup)) continue;
    bySite.set(p.site_id, [...(bySite.get(p.site_id) ?? []), { port: p.port, origins }]);
  }
  return bySite;
}

/** Unscoped, for the licence: how many layer-4 ports the sites made from a client's products have. */
export async function clientPortCount(db: Db, clientId: number) {
  const row = await db
    .selectFrom('l4_ports')
    .innerJoin('sites', 'sites.id', 'l4_ports.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('products.client_id', '=', clientId)
    .executeTakeFirst();
  return toCount(row?.n as number);
}
