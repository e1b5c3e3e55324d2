import crypto from 'node:crypto';
import { Codes, edge, type PageQuery } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import { paginate } from '../../db/paging';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { readRuleConfig, readUser, type RuleConfig } from './stored';

/** Groups and rules live in site_modules (kinds authGroup, authRule); users are items of their group. */
const GROUP = 'authGroup';
const RULE = 'authRule';

/** PBKDF2-HMAC-SHA1, the hash the edge can check from Lua; the password itself is never kept. */
export const hashPassword = (password: string, salt = crypto.randomBytes(16).toString('hex')) => ({
  salt,
  hash: crypto.pbkdf2Sync(password, Buffer.from(salt, 'hex'), edge.BASIC_AUTH_ROUNDS, 20, 'sha1').toString('hex'),
});

async function rowOf(deps: AppDeps, siteId: number, kind: string, id: number) {
  const row = await deps.db.selectFrom('site_modules').selectAll().where('id', '=', id).where('site_id', '=', siteId).where('kind', '=', kind).executeTakeFirst();
  if (!row) throw notFound(kind === GROUP ? 'group' : 'rule');
  return row;
}

const rulesOf = async (deps: AppDeps, siteId: number) =>
  (await deps.db.selectFrom('site_modules').select(['id', 'config']).where('site_id', '=', siteId).where('kind', '=', RULE).orderBy('id').execute()).map((r) => ({
    id: r.id,
    ...readRuleConfig(r.config),
  }));

export async function settingExists(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  return { exists: (await rulesOf(deps, siteId)).length > 0 };
}

export async function metaGroups(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  return deps.db.selectFrom('site_modules').select(['id', 'name']).where('site_id', '=', siteId).where('kind', '=', GROUP).orderBy('name').execute();
}

export async function listGroups(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  await sitesRepo(deps, principal).get(o.siteId);
  let q = deps.db.selectFrom('site_modules').select(['id', 'name', 'created_at']).where('site_id', '=', o.siteId).where('kind', '=', GROUP);
  if (o.query.name) q = q.where('name', 'like', `%${o.query.name}%`);
  const page = await paginate(q, { page: o.query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'asc' } });
  const rules = await rulesOf(deps, o.siteId);
  const ids = page.data.map((g) => g.id);
  const counts = ids.length
    ? await deps.db.selectFrom('site_module_items').select(['module_id', (eb) => eb.fn.countAll().as('n')]).where('module_id', 'in', ids).groupBy('module_id').execute()
    : [];
  return {
    data: page.data.map((g) => ({
      id: g.id,
      name: g.name,
      users: toCount(counts.find((c) => c.module_id === g.id)?.n as number),
      rules: rules.filter((r) => r.groupIDs.includes(g.id)).length,
      createdAt: g.created_at,
    })),
    total: page.total,
  };
}

export async function saveGroup(deps: AppDeps, principal: Principal, o: { siteId: number; id?: number; name: string }) {
  const site = await sitesRepo(deps, principal).get(o.siteId);
  if (o.id) await rowOf(deps, o.siteId, GROUP, o.id);
  let clash = deps.db.selectFrom('site_modules').select('id').where('site_id', '=', o.siteId).where('kind', '=', GROUP).where('name', '=', o.name);
  if (o.id) clash = clash.where('id', '!=', o.id);
  if (await clash.executeTakeFirst()) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const at = now();
  const id = o.id
    ? (await deps.db.updateTable('site_modules').set({ name: o.name, updated_at: at }).where('id', '=', o.id).returning('id').executeTakeFirstOrThrow()).id
    : (await deps.db.insertInto('site_modules').values({ site_id: o.siteId, kind: GROUP, name: o.name, config: '{}', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  if (o.id) await sitesChanged(deps, [site]);
  const { data } = await listGroups(deps, principal, { siteId: o.siteId, query: { page: 1, pageSize: 500 } });
  return data.find((g) => g.id === id)!;
}

export async function removeGroups(deps: AppDeps, principal: Principal, o: { siteId: number; ids: number[] }) {
  await sitesRepo(deps, principal).get(o.siteId);
  for (const id of new Set(o.ids)) await rowOf(deps, o.siteId, GROUP, id);
  const used = (await rulesOf(deps, o.siteId)).filter((r) => r.groupIDs.some((g) => o.ids.includes(g)));
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'remove the group from its rules first', rules: used.map((r) => r.id) } });
  await deps.db.deleteFrom('site_modules').where('id', 'in', o.ids).execute();
}

const usersOf = async (deps: AppDeps, groupId: number) =>
  (await deps.db.selectFrom('site_module_items').select(['id', 'item', 'created_at']).where('module_id', '=', groupId).orderBy('id').execute()).map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    ...readUser(r.item),
  }));

export async function listUsers(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number }) {
  await sitesRepo(deps, principal).get(o.siteId);
  await rowOf(deps, o.siteId, GROUP, o.groupId);
  return (await usersOf(deps, o.groupId)).map(({ id, user, createdAt }) => ({ id, user, createdAt }));
}

/** Adds (no id) or changes a user; a user name is unique in its group. */
export async function saveUser(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number; id?: number; user: string; password?: string }) {
  const site = await sitesRepo(deps, principal).get(o.siteId);
  await rowOf(deps, o.siteId, GROUP, o.groupId);
  const users = await usersOf(deps, o.groupId);
  const current = o.id ? users.find((u) => u.id === o.id) : undefined;
  if (o.id && !current) throw notFound('user');
  if (users.some((u) => u.id !== o.id && u.user === o.user)) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'user', message: 'Data already exists!' }] } });
  const secret = o.password ? hashPassword(o.password) : { salt: current!.salt, hash: current!.hash };
  const item = JSON.stringify({ user: o.user, ...secret });
  const at = now();
  const id = o.id
    ? (await deps.db.updateTable('site_module_items').set({ item }).where('id', '=', o.id).returning('id').executeTakeFirstOrThrow()).id
    : (await deps.db.insertInto('site_module_items').values({ module_id: o.groupId, item, created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  await sitesChanged(deps, [site]);
  return { id, user: o.user, createdAt: current?.createdAt ?? at };
}

export async function removeUsers(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number; ids: number[] }) {
  const site = await sitesRepo(deps, principal).get(o.siteId);
  await rowOf(deps, o.siteId, GROUP, o.groupId);
  const owned = await deps.db.selectFrom('site_module_items').select('id').where('module_id', '=', o.groupId).where('id', 'in', o.ids).execute();
  if (owned.length !== new Set(o.ids).size) throw notFound('user');
  await deps.db.deleteFrom('site_module_items').where('id', 'in', o.ids).execute();
  await sitesChanged(deps, [site]);
}

async function toRuleItems(deps: AppDeps, siteId: number, rules: { id: number; config: string; created_at: string }[]) {
  const groups = await deps.db.selectFrom('site_modules').select(['id', 'name']).where('site_id', '=', siteId).where('kind', '=', GROUP).execute();
  return rules.map((r) => {
    const c = readRuleConfig(r.config);
    return { id: r.id, match: c.match, pattern: c.pattern, realm: c.realm, groups: groups.filter((g) => c.groupIDs.includes(g.id)), createdAt: r.created_at };
  });
}

export async function listRules(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery }) {
  await sitesRepo(deps, principal).get(o.siteId);
  const q = deps.db.selectFrom('site_modules').select(['id', 'config', 'created_at']).where('site_id', '=', o.siteId).where('kind', '=', RULE);
  const page = await paginate(q, { page: o.query, sortable: { createdAt: 'created_at' }, defaultSort: { column: 'id', order: 'asc' } });
  return { data: await toRuleItems(deps, o.siteId, page.data), total: page.total };
}

export async function saveRule(deps: AppDeps, principal: Principal, o: { siteId: number; rule: RuleConfig & { id?: number } }) {
  const site = await sitesRepo(deps, principal).get(o.siteId);
  const { id, ...config } = o.rule;
  if (id) await rowOf(deps, o.siteId, RULE, id);
  for (const g of new Set(config.groupIDs)) await rowOf(deps, o.siteId, GROUP, g);
  const at = now();
  const json = JSON.stringify({ ...config, groupIDs: [...new Set(config.groupIDs)] });
  const saved = id
    ? (await deps.db.updateTable('site_modules').set({ config: json, updated_at: at }).where('id', '=', id).returning('id').executeTakeFirstOrThrow()).id
    : (await deps.db.insertInto('site_modules').values({ site_id: o.siteId, kind: RULE, name: config.pattern, config: json, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
  await sitesChanged(deps, [site]);
  const row = await rowOf(deps, o.siteId, RULE, saved);
  return (await toRuleItems(deps, o.siteId, [row]))[0];
}

export async function removeRules(deps: AppDeps, principal: Principal, o: { siteId: number; ids: number[] }) {
  const site = await sitesRepo(deps, principal).get(o.siteId);
  for (const id of new Set(o.ids)) await rowOf(deps, o.siteId, RULE, id);
  await deps.db.deleteFrom('site_modules').where('id', 'in', o.ids).execute();
  await sitesChanged(deps, [site]);
}
