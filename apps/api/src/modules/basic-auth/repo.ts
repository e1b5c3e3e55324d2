import type { edge, PageQuery } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import { now, type Db } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';
import { readRuleConfig, readUser } from './stored';

/** Groups and rules live in site_modules (kinds authGroup, authRule); users are items of their group. */
const GROUP = 'authGroup';
const RULE = 'authRule';

type GroupRow = Selectable<Database['site_modules']>;

/**
 * The basic-auth groups, users and rules of a site the caller reached. A group or rule of another site answers
 * 101003/404 as if it did not exist; a user is reached only through its group.
 */
export function basicAuthRepo(db: Db, site: ReachedSite) {
  const modules = (kind: string) => db.selectFrom('site_modules').where('site_id', '=', site.id).where('kind', '=', kind);
  const row = async (kind: string, id: number) => {
    const found = await modules(kind).selectAll().where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound(kind === GROUP ? 'group' : 'rule');
    return found;
  };
  const rules = async () => (await modules(RULE).select(['id', 'config']).orderBy('id').execute()).map((r) => ({ id: r.id, ...readRuleConfig(r.config) }));
  const save = async (kind: string, id: number | undefined, values: { name?: string; config?: string }) => {
    const at = now();
    if (id) return (await db.updateTable('site_modules').set({ ...values, updated_at: at }).where('id', '=', id).where('site_id', '=', site.id).returning('id').executeTakeFirstOrThrow()).id;
    const fresh = { site_id: site.id, kind, name: '', config: '{}', ...values, created_at: at, updated_at: at };
    return (await db.insertInto('site_modules').values(fresh).returning('id').executeTakeFirstOrThrow()).id;
  };
  const remove = (kind: string, ids: number[]) => db.deleteFrom('site_modules').where('site_id', '=', site.id).where('kind', '=', kind).where('id', 'in', ids).execute();
  return {
    /** One group of the site, or 101003/404. */
    group: (id: number) => row(GROUP, id),
    /** One rule of the site, or 101003/404. */
    rule: (id: number) => row(RULE, id),
    /** The site's rules with their stored settings, in the order they were made. */
    rules,
    groupNames: () => modules(GROUP).select(['id', 'name']).orderBy('name').execute(),

    async groupsPage(query: PageQuery & { name?: string }) {
      let q = modules(GROUP).select(['id', 'name', 'created_at']);
      if (query.name) q = q.where('name', 'like', `%${query.name}%`);
      return paginate(q, { page: query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
    },

    /** How many users each of the given groups holds. */
    userCounts: async (groupIds: number[]) =>
      groupIds.length
        ? await db.selectFrom('site_module_items').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', groupIds).groupBy('module_id').execute()
        : [],

    async groupNameTaken(name: string, exceptId?: number) {
      let clash = modules(GROUP).select('id').where('name', '=', name);
      if (exceptId) clash = clash.where('id', '!=', exceptId);
      return (await clash.executeTakeFirst()) !== undefined;
    },

    /** Renames a group (id) or adds one; answers its id. */
    saveGroup: (id: number | undefined, name: string) => save(GROUP, id, { name }),
    removeGroups: (ids: number[]) => remove(GROUP, ids),

    /** Changes a rule (id) or adds one named after its pattern; answers its id. */
    saveRule: (id: number | undefined, pattern: string, config: string) => save(RULE, id, id ? { config } : { name: pattern, config }),
    removeRules: (ids: number[]) => remove(RULE, ids),

    /** Rules as the console lists them, with the groups they name. */
    async ruleItems(rows: { id: number; config: string; created_at: string }[]) {
      const groups = await modules(GROUP).select(['id', 'name']).execute();
      return rows.map((r) => {
        const c = readRuleConfig(r.config);
        return { id: r.id, match: c.match, pattern: c.pattern, realm: c.realm, groups: groups.filter((g) => c.groupIDs.includes(g.id)), createdAt: r.created_at };
      });
    },

    rulesPage: (query: PageQuery) =>
      paginate(modules(RULE).select(['id', 'config', 'created_at']), { page: query, sortable: { createdAt: 'created_at' }, defaultSort: { column: 'id', order: 'asc' } }),

    /** The users of one of the site's groups, as `group` read it. */
    users(group: GroupRow) {
      const items = () => db.selectFrom('site_module_items').where('module_id', '=', group.id);
      return {
        list: async () =>
          (await items().select(['id', 'item', 'created_at']).orderBy('id').execute()).map((r) => ({ id: r.id, createdAt: r.created_at, ...readUser(r.item) })),
        /** Changes a user (id) or adds one; answers its id. */
        save: async (id: number | undefined, item: string, at: string) =>
          id
            ? (await db.updateTable('site_module_items').set({ item }).where('id', '=', id).where('module_id', '=', group.id).returning('id').executeTakeFirstOrThrow()).id
            : (await db.insertInto('site_module_items').values({ module_id: group.id, item, created_at: at }).returning('id').executeTakeFirstOrThrow()).id,
        /** How many of the given ids are users of the group. */
        owned: async (ids: number[]) => (await items().select('id').where('id', 'in', ids).execute()).length,
        remove: (ids: number[]) => db.deleteFrom('site_module_items').where('module_id', '=', group.id).where('id', 'in', ids).execute(),
      };
    },
  };
}

/**
 * Unscoped, for the nodes' desired state: each site's basic-auth rules with the hashed users of their groups, for
 * every domain of the site.
 */
export async function basicAuthOf(db: Db, siteIds: number[]) {
  const result = new Map<number, edge.BasicAuthRule[]>();
  if (!siteIds.length) return result;
  const rows = await db.selectFrom('site_modules').select(['id', 'site_id', 'kind', 'config']).where('site_id', 'in', siteIds).where('kind', 'in', [RULE, GROUP]).orderBy('id').execute();
  const groupIds = rows.filter((r) => r.kind === GROUP).map((r) => r.id);
  const users = groupIds.length
    ? await db.selectFrom('site_module_items').select(['module_id', 'item']).where('module_id', 'in', groupIds).orderBy('id').execute()
    : [];
  for (const r of rows.filter((x) => x.kind === RULE)) {
    const c = readRuleConfig(r.config);
    const members = users
      .filter((u) => c.groupIDs.includes(u.module_id))
      .map((u) => {
        const { user, salt, hash } = readUser(u.item);
        return { user, salt, hash };
      });
    result.set(r.site_id, [...(result.get(r.site_id) ?? []), { match: c.match, pattern: c.pattern, realm: c.realm, users: members }]);
  }
  return result;
}
