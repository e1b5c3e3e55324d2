import type { firewallRuleSchemas, firewallSchemas, PageQuery } from '@edgekeep/contract';
import type { Insertable, Updateable } from 'kysely';
import { inBatches, now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';

type List = (typeof firewallSchemas.LISTS)[number];
type IpRule = Database['site_ip_rules'];
type Rule = Database['site_firewall_rules'];

/**
 * The firewall of a site the caller reached: its IP lists, its rules of the other kinds and its settings. An entry
 * or rule of another site answers 101003/404 as if it did not exist.
 */
export function firewallRepo(db: Db, site: ReachedSite) {
  return {
    /** The entries of one of the site's IP lists. */
    ipList(list: List) {
      const entries = () => db.selectFrom('site_ip_rules').where('site_id', '=', site.id).where('list', '=', list);
      const get = async (id: number) => {
        const row = await entries().selectAll().where('id', '=', id).executeTakeFirst();
        if (!row) throw notFound('entry');
        return row;
      };
      return {
        get,
        page(query: PageQuery & { ip?: string }) {
          const q = query.ip ? entries().selectAll().where('ip', 'like', `%${query.ip}%`) : entries().selectAll();
          return paginate(q, { page: query, sortable: { ip: 'ip', port: 'port', url: 'url', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
        },
        /** Which of `ips` the list holds already. */
        present: async (ips: string[]) => (await entries().select('ip').where('ip', 'in', ips).execute()).map((r) => r.ip),
        count: async () => toCount((await entries().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n as number),
        /** Whether another entry of the list has this address. */
        ipTaken: async (ip: string, exceptId: number) => (await entries().select('id').where('ip', '=', ip).where('id', '!=', exceptId).executeTakeFirst()) !== undefined,
        /** New entries, in batches within one transaction. */
        insert: (values: Omit<Insertable<IpRule>, 'site_id' | 'list'>[]) =>
          db.transaction().execute(async (tx) => {
            const made = [];
            for (const batch of inBatches(values.map((v) => ({ ...v, site_id: site.id, list })))) made.push(...(await tx.insertInto('site_ip_rules').values(batch).returningAll().execute()));
            return made;
          }),
        update: (id: number, values: Updateable<IpRule>) => db.updateTable('site_ip_rules').set(values).where('id', '=', id).where('site_id', '=', site.id).execute(),
        /** The entries named by ids, each one of the list's. */
        async owned(ids: number[]) {
          const rows = await entries().select(['id', 'enabled']).where('id', 'in', ids).execute();
          if (rows.length !== new Set(ids).size) throw notFound('entry');
          return rows;
        },
        setEnabled: (ids: number[], enabled: boolean) => db.updateTable('site_ip_rules').set({ enabled: enabled ? 1 : 0 }).where('site_id', '=', site.id).where('id', 'in', ids).execute(),
        remove: (ids: number[]) => db.deleteFrom('site_ip_rules').where('site_id', '=', site.id).where('id', 'in', ids).execute(),
      };
    },

    /** The site's firewall rules of one kind. */
    rules(kind: firewallRuleSchemas.RuleKind) {
      const rules = () => db.selectFrom('site_firewall_rules').where('site_id', '=', site.id).where('kind', '=', kind);
      return {
        all: () => rules().selectAll().orderBy('id').execute(),
        async get(id: number) {
          const row = await rules().selectAll().where('id', '=', id).executeTakeFirst();
          if (!row) throw notFound('rule');
          return row;
        },
        insert: (values: { body: string; priority: number; enabled: 0 | 1 }) =>
          db.insertInto('site_firewall_rules').values({ site_id: site.id, kind, ...values, created_at: now() }).returningAll().executeTakeFirstOrThrow(),
        update: (id: number, values: Updateable<Rule>) => db.updateTable('site_firewall_rules').set(values).where('id', '=', id).where('site_id', '=', site.id).execute(),
        /** The rules named by ids, each one of the site's of this kind. */
        async owned(ids: number[]) {
          const rows = await rules().select(['id', 'enabled']).where('id', 'in', ids).execute();
          if (rows.length !== new Set(ids).size) throw notFound('rule');
          return rows;
        },
        setEnabled: (ids: number[], enabled: boolean) => db.updateTable('site_firewall_rules').set({ enabled: enabled ? 1 : 0 }).where('site_id', '=', site.id).where('id', 'in', ids).execute(),
        remove: (ids: number[]) => db.deleteFrom('site_firewall_rules').where('site_id', '=', site.id).where('id', 'in', ids).execute(),
      };
    },

    /**
     * Forgets the site's blocks (of these addresses, or all) and records their lift for the nodes; lifts older than
     * `keepSeconds` are pruned on the way, whichever site made them. Answers how many addresses were blocked now.
     */
    async unblock(ips: string[] | undefined, keepSeconds: number) {
      let active = db.selectFrom('blocked_ips').select('ip').where('site_id', '=', site.id).where('expires_at', '>', now());
      let del = db.deleteFrom('blocked_ips').where('site_id', '=', site.id);
      if (ips) {
        active = active.where('ip', 'in', ips);
        del = del.where('ip', 'in', ips);
      }
      const removed = new Set((await active.execute()).map((r) => r.ip)).size;
      await del.execute();
      const at = Math.ceil(Date.now() / 1000);
      await db.deleteFrom('blocked_ip_lifts').where('lifted_at', '<', at - keepSeconds).execute();
      const lifts: { site_id: number; ip: string | null; lifted_at: number }[] = ips ? ips.map((ip) => ({ site_id: site.id, ip, lifted_at: at })) : [{ site_id: site.id, ip: null, lifted_at: at }];
      for (const batch of inBatches(lifts)) await db.insertInto('blocked_ip_lifts').values(batch).execute();
      return removed;
    },

    async setAdvance(advance: 0 | 1) {
      const updated = await db.updateTable('site_firewall_settings').set({ advance }).where('site_id', '=', site.id).executeTakeFirst();
      if (!Number(updated.numUpdatedRows)) await db.insertInto('site_firewall_settings').values({ site_id: site.id, advance }).execute();
    },

    /** What the settings page shows: every IP-list entry and rule by list with whether it is enabled, the advanced switch, how many addresses are blocked now. */
    async overview() {
      const ips = await db.selectFrom('site_ip_rules').select(['list', 'enabled']).where('site_id', '=', site.id).execute();
      const rules = await db.selectFrom('site_firewall_rules').select(['kind as list', 'enabled']).where('site_id', '=', site.id).execute();
      const setting = await db.selectFrom('site_firewall_settings').select('advance').where('site_id', '=', site.id).executeTakeFirst();
      const blocked = await db
        .selectFrom('blocked_ips')
        .select((eb) => eb.fn.count<number>('ip').distinct().as('n'))
        .where('site_id', '=', site.id)
        .where('expires_at', '>', now())
        .executeTakeFirst();
      return { entries: [...ips, ...rules], advance: setting?.advance === 1, blockedIPs: toCount(blocked?.n) };
    },
  };
}

/** The blocks in force on sites the caller reached, one row per site, node and address. */
export const activeBlocks = (db: Db, sites: ReachedSite[]) =>
  db.selectFrom('blocked_ips').selectAll().where('site_id', 'in', sites.map((s) => s.id)).where('expires_at', '>', now()).execute();

/** Which of the sites the caller reached block any address now. */
export const sitesBlockingNow = async (db: Db, sites: ReachedSite[]) =>
  (await db.selectFrom('blocked_ips').select('site_id').distinct().where('site_id', 'in', sites.map((s) => s.id)).where('expires_at', '>', now()).execute()).map((r) => r.site_id);

/** Unscoped, for a node's report: the ids of the sites its zone serves. */
export const siteIdsOfZone = async (db: Db, zoneId: number) =>
  (await db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select('sites.id').where('products.zone_id', '=', zoneId).execute()).map((s) => s.id);

/** Unscoped, for a node's report: what the node blocks now replaces what it reported before. */
export const replaceNodeBlocks = (db: Db, nodeId: number, rows: Omit<Insertable<Database['blocked_ips']>, 'node_id'>[]) =>
  db.transaction().execute(async (tx) => {
    await tx.deleteFrom('blocked_ips').where('node_id', '=', nodeId).execute();
    for (const batch of inBatches(rows.map((r) => ({ ...r, node_id: nodeId })))) await tx.insertInto('blocked_ips').values(batch).execute();
  });

/** Unscoped, for the edge state: the enabled IP list entries of these sites. */
export const enabledIpRulesOfSites = (db: Db, siteIds: number[]) =>
  db.selectFrom('site_ip_rules').select(['site_id', 'list', 'ip', 'url', 'methods', 'port']).where('site_id', 'in', siteIds).where('enabled', '=', 1).orderBy('id').execute();

/** Unscoped, for the edge state: the enabled (not layer-4) firewall rules of these sites, in priority order. */
export const enabledRulesOfSites = (db: Db, siteIds: number[]) =>
  db
    .selectFrom('site_firewall_rules')
    .select(['id', 'site_id', 'kind', 'body'])
    .where('site_id', 'in', siteIds)
    .where('kind', 'not like', 'l4%')
    .where('enabled', '=', 1)
    .orderBy('priority')
    .orderBy('id')
    .execute();

/** Unscoped, for the edge state: the enabled layer-4 firewall rules of these sites. */
export const enabledL4RulesOfSites = (db: Db, siteIds: number[]) =>
  db
    .selectFrom('site_firewall_rules')
    .select(['site_id', 'kind', 'body'])
    .where('site_id', 'in', siteIds)
    .where('kind', 'in', ['l4Blacklist', 'l4Whitelist', 'l4Position', 'l4LimitConn'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();

/** Unscoped, for the edge state: the block lifts of these sites since `since` (unix seconds). */
export const liftsOfSitesSince = (db: Db, siteIds: number[], since: number) =>
  db.selectFrom('blocked_ip_lifts').select(['site_id', 'ip', 'lifted_at']).where('site_id', 'in', siteIds).where('lifted_at', '>=', since).orderBy('id').execute();

/** Unscoped, for the edge state: which of these sites have the advanced firewall on. */
export const advancedSites = async (db: Db, siteIds: number[]) =>
  (await db.selectFrom('site_firewall_settings').select('site_id').where('site_id', 'in', siteIds).where('advance', '=', 1).execute()).map((r) => r.site_id);
