import type { PageQuery, siteModuleSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import { now, toCount, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';
import { readAccessRule, readItem, type AccessRuleKind, type ItemKind } from './stored';

export type Kind = siteModuleSchemas.ModuleKind;
export type ModuleRow = Selectable<Database['site_modules']>;
type DomainRef = { id: number };
type Sortable = Record<string, 'name' | 'created_at' | 'updated_at'>;

/**
 * The modules of a site the caller reached (custom headers, redirects, CORS, rewrites, token auth, WAF), their
 * items and the domains they are assigned to. A module of another site answers 101003/404 ("module not found") as
 * if it did not exist; an item is reached only through a module `module` read.
 */
export function siteModulesRepo(db: Db, site: ReachedSite) {
  const modules = (kind: Kind) => db.selectFrom('site_modules').where('site_id', '=', site.id).where('kind', '=', kind);
  const module = async (kind: Kind, id: number) => {
    const row = await modules(kind).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('module');
    return row;
  };
  const touch = (moduleId: number, at = now()) => db.updateTable('site_modules').set({ updated_at: at }).where('id', '=', moduleId).where('site_id', '=', site.id).execute();
  return {
    /** One module of the site of that kind, or 101003/404. */
    module,

    page(kind: Kind, query: PageQuery & { name?: string }, sortable: Sortable) {
      let q = modules(kind).selectAll();
      if (query.name) q = q.where('name', 'like', `%${query.name}%`);
      return paginate(q, { page: query, sortable, defaultSort: { column: 'created_at', order: 'asc' } });
    },

    async nameTaken(kind: Kind, name: string, exceptId?: number) {
      let q = modules(kind).select('id').where('name', '=', name);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** Changes a module (id: its name, and its config when given) or adds one; answers its id. */
    async save(kind: Kind, id: number | undefined, name: string, config?: object) {
      const at = now();
      const json = config === undefined ? {} : { config: JSON.stringify(config) };
      if (id) return (await db.updateTable('site_modules').set({ name, ...json, updated_at: at }).where('id', '=', id).where('site_id', '=', site.id).returning('id').executeTakeFirstOrThrow()).id;
      const fresh = { site_id: site.id, kind, name, config: json.config ?? '{}', created_at: at, updated_at: at };
      return (await db.insertInto('site_modules').values(fresh).returning('id').executeTakeFirstOrThrow()).id;
    },

    /** How many of the given ids are the site's modules of that kind. */
    owned: async (kind: Kind, ids: number[]) => (await modules(kind).select('id').where('id', 'in', ids).execute()).length,
    remove: (kind: Kind, ids: number[]) => db.deleteFrom('site_modules').where('site_id', '=', site.id).where('kind', '=', kind).where('id', 'in', ids).execute(),

    /** The kinds of module the site has. */
    kinds: async () => (await db.selectFrom('site_modules').select('kind').distinct().where('site_id', '=', site.id).execute()).map((r) => r.kind),

    /** The domains of the site each of the given modules is assigned to, by name. */
    async assignedDomains(moduleIds: number[]) {
      if (!moduleIds.length) return new Map<number, { id: number; name: string }[]>();
      const rows = await db
        .selectFrom('domain_modules')
        .innerJoin('domains', 'domains.id', 'domain_modules.domain_id')
        .select(['domain_modules.module_id', 'domains.id', 'domains.name'])
        .where('domains.site_id', '=', site.id)
        .where('domain_modules.module_id', 'in', moduleIds)
        .orderBy('domains.name')
        .execute();
      const map = new Map<number, { id: number; name: string }[]>();
      for (const r of rows) map.set(r.module_id, [...(map.get(r.module_id) ?? []), { id: r.id, name: r.name }]);
      return map;
    },

    /** How many items each of the given modules holds. */
    itemCounts: async (moduleIds: number[]) =>
      moduleIds.length
        ? (await db.selectFrom('site_module_items').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', moduleIds).groupBy('module_id').execute()).map(
            (c) => ({ moduleId: c.module_id, n: toCount(c.n as number) }),
          )
        : [],

    /** Points the given domains (as the domains repository read them) at a module of a kind; none unassigns. */
    async assign(kind: Kind, domains: DomainRef[], moduleId: number | undefined) {
      const ids = domains.map((d) => d.id);
      await db.deleteFrom('domain_modules').where('kind', '=', kind).where('domain_id', 'in', ids).execute();
      if (moduleId) await db.insertInto('domain_modules').values(ids.map((d) => ({ domain_id: d, kind, module_id: moduleId }))).execute();
    },

    /** The module of a kind a domain of the site is assigned to, if any. */
    assignedTo: (domain: DomainRef, kind: Kind) =>
      db
        .selectFrom('domain_modules')
        .innerJoin('site_modules', 'site_modules.id', 'domain_modules.module_id')
        .select(['site_modules.id', 'site_modules.name'])
        .where('site_modules.site_id', '=', site.id)
        .where('domain_modules.domain_id', '=', domain.id)
        .where('domain_modules.kind', '=', kind)
        .executeTakeFirst(),

    /** The items of one of the site's modules, as `module` read it. */
    items(m: Pick<ModuleRow, 'id'>) {
      const items = () => db.selectFrom('site_module_items').where('module_id', '=', m.id);
      return {
        /** In insertion order, read as their kind's schema. */
        list: async <K extends ItemKind>(kind: K) => (await items().select(['id', 'item']).orderBy('id').execute()).map((r) => ({ id: r.id, ...readItem(kind, r.item) })),
        count: async () => toCount((await items().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n as number),
        /** Adds (no id) or replaces one item; answers its id, or 101003/404 for an id the module does not hold. */
        async put(id: number | undefined, item: object) {
          const json = JSON.stringify(item);
          const at = now();
          if (id) {
            const r = await db.updateTable('site_module_items').set({ item: json }).where('id', '=', id).where('module_id', '=', m.id).executeTakeFirst();
            if (Number(r.numUpdatedRows) !== 1) throw notFound('item');
          }
          const saved = id ?? (await db.insertInto('site_module_items').values({ module_id: m.id, item: json, created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
          await touch(m.id, at);
          return saved;
        },
        /** Adds items at once (the module is not marked changed). */
        add: async (list: object[]) => {
          const at = now();
          await db.insertInto('site_module_items').values(list.map((item) => ({ module_id: m.id, item: JSON.stringify(item), created_at: at }))).execute();
        },
        /** Replaces items the module holds, then marks the module changed. */
        async replace(list: { id: number; item: object }[]) {
          for (const c of list) await db.updateTable('site_module_items').set({ item: JSON.stringify(c.item) }).where('id', '=', c.id).where('module_id', '=', m.id).execute();
          await touch(m.id);
        },
        /** How many of the given ids are items of the module. */
        owned: async (ids: number[]) => (await items().select('id').where('id', 'in', ids).execute()).length,
        async remove(ids: number[]) {
          await db.deleteFrom('site_module_items').where('module_id', '=', m.id).where('id', 'in', ids).execute();
          await touch(m.id);
        },
      };
    },

    /** A domain's own access rules of one kind, as the domains repository read the domain. */
    accessRules<K extends AccessRuleKind>(domain: DomainRef, kind: K) {
      const rules = () => db.selectFrom('domain_access_rules').where('domain_id', '=', domain.id).where('kind', '=', kind);
      return {
        list: async () => (await rules().select(['id', 'rule', 'memo']).orderBy('id').execute()).map((r) => ({ id: r.id, rule: readAccessRule(kind, r.rule), memo: r.memo })),
        add: async (rule: object, memo: string) =>
          (await db.insertInto('domain_access_rules').values({ domain_id: domain.id, kind, rule: JSON.stringify(rule), memo, created_at: now() }).returning('id').executeTakeFirstOrThrow()).id,
        /** Whether the rule was there to change. */
        update: async (id: number, rule: object, memo: string) =>
          Number((await db.updateTable('domain_access_rules').set({ rule: JSON.stringify(rule), memo }).where('id', '=', id).where('domain_id', '=', domain.id).where('kind', '=', kind).executeTakeFirst()).numUpdatedRows) === 1,
        owned: async (ids: number[]) => (await rules().select('id').where('id', 'in', ids).execute()).length,
        remove: (ids: number[]) => db.deleteFrom('domain_access_rules').where('domain_id', '=', domain.id).where('kind', '=', kind).where('id', 'in', ids).execute(),
      };
    },
  };
}

/** Unscoped, for the edge state: the modules assigned to these domains, with their kind and config. */
export const moduleLinksOfDomains = (db: Db, domainIds: number[]) =>
  db
    .selectFrom('domain_modules')
    .innerJoin('site_modules', 'site_modules.id', 'domain_modules.module_id')
    .select(['domain_modules.domain_id', 'domain_modules.kind', 'site_modules.id', 'site_modules.config'])
    .where('domain_modules.domain_id', 'in', domainIds)
    .execute();

/** Unscoped, for the edge state: the items of these modules. */
export const itemsOfModules = (db: Db, moduleIds: number[]) => db.selectFrom('site_module_items').select(['module_id', 'item']).where('module_id', 'in', moduleIds).orderBy('id').execute();

/** Unscoped, for the edge state: the referer and header rules of these domains. */
export const accessRulesOfDomains = (db: Db, domainIds: number[]) =>
  db.selectFrom('domain_access_rules').select(['domain_id', 'kind', 'rule']).where('domain_id', 'in', domainIds).orderBy('id').execute();

/** Unscoped, for the edge state: the config of the WAF module of each of these domains that has one. */
export const wafConfigsOfDomains = (db: Db, domainIds: number[]) =>
  db
    .selectFrom('domain_modules')
    .innerJoin('site_modules', 'site_modules.id', 'domain_modules.module_id')
    .select(['domain_modules.domain_id', 'site_modules.config'])
    .where('domain_modules.domain_id', 'in', domainIds)
    .where('domain_modules.kind', '=', 'waf')
    .execute();
