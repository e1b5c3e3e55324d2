import type { wafAclSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { WafTables } from '../../db/schema-waf';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';

export type AnticcInput = z.infer<typeof wafAclSchemas.anticcInput>;

const toItem = (r: Selectable<WafTables['site_anticc_rules']>) => ({
  id: r.id,
  urlRegex: r.url_regex,
  seconds: r.seconds,
  times: r.times,
  type: r.type as AnticcInput['type'],
  priority: r.priority,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
});

const columns = (r: AnticcInput) => ({
  url_regex: r.urlRegex, seconds: r.seconds, times: r.times, type: r.type, priority: r.priority, enabled: (r.enabled ? 1 : 0) as 0 | 1,
});

/** The anti-CC rules of a site the caller reached; a rule of another site answers 101003 as if it did not exist. */
export function anticcRepo(db: Db, site: ReachedSite) {
  const rules = () => db.selectFrom('site_anticc_rules').selectAll().where('site_id', '=', site.id);
  return {
    async page(query: z.infer<typeof wafAclSchemas.anticcsQuery>) {
      let q = rules();
      if (query.urlRegex) q = q.where('url_regex', 'like', `%${query.urlRegex}%`);
      if (query.type) q = q.where('type', '=', query.type);
      const page = await paginate(q, {
        page: query,
        sortable: { priority: 'priority', urlRegex: 'url_regex', createdAt: 'created_at' },
        defaultSort: { column: 'priority', order: 'asc' },
      });
      return { data: page.data.map(toItem), total: page.total };
    },

    async get(id: number) {
      const row = await rules().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('rule');
      return toItem(row);
    },

    /** The rules named by ids, each one of the site's. */
    async owned(ids: number[]) {
      const rows = await rules().where('id', 'in', ids).execute();
      if (rows.length !== new Set(ids).size) throw notFound('rule');
      return rows.map(toItem);
    },

    insert: async (rule: AnticcInput) =>
      toItem(await db.insertInto('site_anticc_rules').values({ site_id: site.id, ...columns(rule), created_at: now() }).returningAll().executeTakeFirstOrThrow()),

    update: (id: number, rule: AnticcInput) => db.updateTable('site_anticc_rules').set(columns(rule)).where('id', '=', id).where('site_id', '=', site.id).execute(),

    setEnabled: (ids: number[], enabled: boolean) =>
      db.updateTable('site_anticc_rules').set({ enabled: enabled ? 1 : 0 }).where('id', 'in', ids).where('site_id', '=', site.id).execute(),

    remove: (ids: number[]) => db.deleteFrom('site_anticc_rules').where('id', 'in', ids).where('site_id', '=', site.id).execute(),
  };
}

/** Unscoped, for the edge state: the enabled anti-CC rules of these sites, in priority order. */
export const enabledAnticcRulesOfSites = (db: Db, siteIds: number[]) =>
  db.selectFrom('site_anticc_rules').selectAll().where('site_id', 'in', siteIds).where('enabled', '=', 1).orderBy('priority').orderBy('id').execute();
