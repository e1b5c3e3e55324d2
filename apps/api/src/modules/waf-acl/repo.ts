import type { PageQuery, wafAclSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { WafTables } from '../../db/schema-waf';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';
import { readConditions } from './stored';

export type RuleInput = z.infer<typeof wafAclSchemas.ruleInput>;
type ModuleRow = Selectable<WafTables['waf_acl_modules']>;
type RuleRow = Selectable<WafTables['waf_acl_rules']>;

const toRule = (r: RuleRow) => ({
  id: r.id,
  moduleID: r.module_id,
  name: r.name,
  priority: r.priority,
  enabled: r.enabled === 1,
  logic: r.logic,
  conditions: readConditions(r.conditions),
  action: r.action as RuleInput['action'],
  redirectURL: r.redirect_url,
  blockSeconds: r.block_seconds,
  createdAt: r.created_at,
});

const ruleColumns = (r: RuleInput) => ({
  name: r.name,
  priority: r.priority,
  enabled: (r.enabled ? 1 : 0) as 0 | 1,
  logic: r.logic,
  conditions: JSON.stringify(r.conditions),
  action: r.action,
  redirect_url: r.action.startsWith('redirect') ? r.redirectURL : '',
  block_seconds: r.blockSeconds,
});

/**
 * The advanced WAF/ACL modules of a site the caller reached, their rules and the domains that carry them. A module of
 * another site answers 101003/404 ("module not found") as if it did not exist; a rule is reached only through a module
 * `module` read.
 */
export function wafAclRepo(db: Db, site: ReachedSite) {
  const modules = () => db.selectFrom('waf_acl_modules').where('site_id', '=', site.id);
  const module = async (id: number) => {
    const row = await modules().selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('module');
    return row;
  };
  /** Modules as the console lists them: their rule counts and the site's domains that carry them. */
  const details = async (rows: ModuleRow[]) => {
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await db.selectFrom('waf_acl_rules').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', ids).groupBy('module_id').execute()
      : [];
    const domains = ids.length
      ? await db
          .selectFrom('waf_acl_domains')
          .innerJoin('domains', 'domains.id', 'waf_acl_domains.domain_id')
          .select(['waf_acl_domains.module_id', 'domains.id', 'domains.name'])
          .where('domains.site_id', '=', site.id)
          .where('waf_acl_domains.module_id', 'in', ids)
          .orderBy('domains.name')
          .execute()
      : [];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      memo: r.memo,
      ruleCount: toCount(counts.find((c) => c.module_id === r.id)?.n as number | undefined),
      domains: domains.filter((d) => d.module_id === r.id).map((d) => ({ id: d.id, name: d.name })),
      createdAt: r.created_at,
    }));
  };
  return {
    /** One module of the site, or 101003/404. */
    module,
    item: async (id: number) => (await details([await module(id)]))[0],

    async page(query: PageQuery & { name?: string }) {
      let q = modules().selectAll();
      if (query.name) q = q.where('name', 'like', `%${query.name}%`);
      const page = await paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
      return { data: await details(page.data), total: page.total };
    },

    /** A name among `names` another module of the site already has. */
    async nameTaken(names: string[], exceptId?: number) {
      let q = modules().select('name').where('name', 'in', names);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst())?.name;
    },

    async insert(list: { name: string; memo: string }[]) {
      const at = now();
      return details(await db.insertInto('waf_acl_modules').values(list.map((m) => ({ site_id: site.id, name: m.name, memo: m.memo, created_at: at }))).returningAll().execute());
    },

    update: (id: number, values: { name: string; memo?: string }) => db.updateTable('waf_acl_modules').set(values).where('id', '=', id).where('site_id', '=', site.id).execute(),

    /** How many of the given ids are the site's modules. */
    owned: async (ids: number[]) => (await modules().select('id').where('id', 'in', ids).execute()).length,

    /** Which of the given modules domains carry. */
    inUse: async (ids: number[]) => [...new Set((await db.selectFrom('waf_acl_domains').select('module_id').where('module_id', 'in', ids).execute()).map((u) => u.module_id))],

    /** Removes the site's modules with their rules. */
    async remove(ids: number[]) {
      const mine = modules().select('id').where('id', 'in', ids);
      await db.deleteFrom('waf_acl_rules').where('module_id', 'in', mine).execute();
      await db.deleteFrom('waf_acl_modules').where('site_id', '=', site.id).where('id', 'in', ids).execute();
    },

    /** Puts a module on the given domains (as the domains repository read them), replacing what they carried; none takes modules off. */
    assign: (domains: { id: number }[], moduleId: number | undefined) =>
      db.transaction().execute(async (trx) => {
        const ids = domains.map((d) => d.id);
        await trx.deleteFrom('waf_acl_domains').where('domain_id', 'in', ids).execute();
        if (moduleId) await trx.insertInto('waf_acl_domains').values(ids.map((domain_id) => ({ domain_id, module_id: moduleId }))).execute();
      }),

    /** How many modules and rules the site has. */
    async counts() {
      const m = await modules().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const r = await db
        .selectFrom('waf_acl_rules')
        .innerJoin('waf_acl_modules', 'waf_acl_modules.id', 'waf_acl_rules.module_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('waf_acl_modules.site_id', '=', site.id)
        .executeTakeFirst();
      return { modules: toCount(m?.n as number | undefined), rules: toCount(r?.n as number | undefined) };
    },

    /** The rules of one of the site's modules, as `module` read it. */
    rules(m: Pick<ModuleRow, 'id'>) {
      const rules = () => db.selectFrom('waf_acl_rules').where('module_id', '=', m.id);
      const get = async (id: number) => {
        const row = await rules().selectAll().where('id', '=', id).executeTakeFirst();
        if (!row) throw notFound('rule');
        return toRule(row);
      };
      return {
        get,
        async page(query: PageQuery & { name?: string }) {
          let q = rules().selectAll();
          if (query.name) q = q.where('name', 'like', `%${query.name}%`);
          const page = await paginate(q, { page: query, sortable: { priority: 'priority', name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'priority', order: 'asc' } });
          return { data: page.data.map(toRule), total: page.total };
        },
        insert: async (rule: RuleInput) => toRule(await db.insertInto('waf_acl_rules').values({ module_id: m.id, ...ruleColumns(rule), created_at: now() }).returningAll().executeTakeFirstOrThrow()),
        update: (id: number, rule: RuleInput) => db.updateTable('waf_acl_rules').set(ruleColumns(rule)).where('id', '=', id).where('module_id', '=', m.id).execute(),
        /** Every one of `ids` must be a rule of the module; a foreign id answers like a missing one. */
        async owned(ids: number[]) {
          const rows = await rules().select('id').where('id', 'in', ids).execute();
          if (rows.length !== new Set(ids).size) throw notFound('rule');
        },
        setEnabled: (ids: number[], enabled: boolean) => db.updateTable('waf_acl_rules').set({ enabled: enabled ? 1 : 0 }).where('module_id', '=', m.id).where('id', 'in', ids).execute(),
        remove: (ids: number[]) => db.deleteFrom('waf_acl_rules').where('module_id', '=', m.id).where('id', 'in', ids).execute(),
      };
    },
  };
}

/** Unscoped, for naming refusals: the rules among `ruleIds` of modules of these sites, with their module's name. */
export const ruleNamesOfSites = (db: Db, ruleIds: number[], siteIds: number[]) =>
  db
    .selectFrom('waf_acl_rules')
    .innerJoin('waf_acl_modules', 'waf_acl_modules.id', 'waf_acl_rules.module_id')
    .select(['waf_acl_rules.id', 'waf_acl_rules.module_id', 'waf_acl_rules.name', 'waf_acl_modules.name as module'])
    .where('waf_acl_rules.id', 'in', ruleIds)
    .where('waf_acl_modules.site_id', 'in', siteIds)
    .execute();

/** Unscoped, for the edge state: the modules assigned to these domains, with their site, by module. */
export const modulesOfDomains = (db: Db, domainIds: number[]) =>
  db
    .selectFrom('waf_acl_domains')
    .innerJoin('waf_acl_modules', 'waf_acl_modules.id', 'waf_acl_domains.module_id')
    .select(['waf_acl_domains.domain_id', 'waf_acl_domains.module_id', 'waf_acl_modules.site_id'])
    .where('waf_acl_domains.domain_id', 'in', domainIds)
    .orderBy('waf_acl_domains.module_id')
    .execute();

/** Unscoped, for the edge state: the enabled rules of these modules, in priority order. */
export const enabledRulesOfModules = (db: Db, moduleIds: number[]) =>
  db.selectFrom('waf_acl_rules').selectAll().where('module_id', 'in', moduleIds).where('enabled', '=', 1).orderBy('priority').orderBy('id').execute();
