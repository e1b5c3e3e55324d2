import crypto from 'node:crypto';
import { Codes, edge, type PageQuery } from '@edgekeep/contract';
import { now, toCount } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { reachSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { basicAuthRepo } from './repo';
import type { RuleConfig } from './stored';

/** PBKDF2-HMAC-SHA1, the hash the edge can check from Lua; the password itself is never kept. */
export const hashPassword = (password: string, salt = crypto.randomBytes(16).toString('hex')) => ({
  salt,
  hash: crypto.pbkdf2Sync(password, Buffer.from(salt, 'hex'), edge.BASIC_AUTH_ROUNDS, 20, 'sha1').toString('hex'),
});

export async function settingExists(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachSite(deps, principal, siteId, basicAuthRepo);
  return { exists: (await repo.rules()).length > 0 };
}

export async function metaGroups(deps: AppDeps, principal: Principal, siteId: number) {
  const { repo } = await reachSite(deps, principal, siteId, basicAuthRepo);
  return repo.groupNames();
}

export async function listGroups(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery & { name?: string } }) {
  const { repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const page = await repo.groupsPage(o.query);
  const rules = await repo.rules();
  const counts = await repo.userCounts(page.data.map((g) => g.id));
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
  const { site, repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  if (o.id) await repo.group(o.id);
  if (await repo.groupNameTaken(o.name, o.id)) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'name', message: 'Data already exists!' }] } });
  const id = await repo.saveGroup(o.id, o.name);
  if (o.id) await sitesChanged(deps, [site]);
  const { data } = await listGroups(deps, principal, { siteId: o.siteId, query: { page: 1, pageSize: 500 } });
  return data.find((g) => g.id === id)!;
}

export async function removeGroups(deps: AppDeps, principal: Principal, o: { siteId: number; ids: number[] }) {
  const { repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  for (const id of new Set(o.ids)) await repo.group(id);
  const used = (await repo.rules()).filter((r) => r.groupIDs.some((g) => o.ids.includes(g)));
  if (used.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'remove the group from its rules first', rules: used.map((r) => r.id) } });
  await repo.removeGroups(o.ids);
}

export async function listUsers(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number }) {
  const { repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const users = await repo.users(await repo.group(o.groupId)).list();
  return users.map(({ id, user, createdAt }) => ({ id, user, createdAt }));
}

/** Adds (no id) or changes a user; a user name is unique in its group. */
export async function saveUser(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number; id?: number; user: string; password?: string }) {
  const { site, repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const group = repo.users(await repo.group(o.groupId));
  const users = await group.list();
  const current = o.id ? users.find((u) => u.id === o.id) : undefined;
  if (o.id && !current) throw notFound('user');
  if (users.some((u) => u.id !== o.id && u.user === o.user)) throw new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'user', message: 'Data already exists!' }] } });
  const secret = o.password ? hashPassword(o.password) : { salt: current!.salt, hash: current!.hash };
  const at = now();
  const id = await group.save(o.id, JSON.stringify({ user: o.user, ...secret }), at);
  await sitesChanged(deps, [site]);
  return { id, user: o.user, createdAt: current?.createdAt ?? at };
}

export async function removeUsers(deps: AppDeps, principal: Principal, o: { siteId: number; groupId: number; ids: number[] }) {
  const { site, repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const group = repo.users(await repo.group(o.groupId));
  if ((await group.owned(o.ids)) !== new Set(o.ids).size) throw notFound('user');
  await group.remove(o.ids);
  await sitesChanged(deps, [site]);
}

export async function listRules(deps: AppDeps, principal: Principal, o: { siteId: number; query: PageQuery }) {
  const { repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const page = await repo.rulesPage(o.query);
  return { data: await repo.ruleItems(page.data), total: page.total };
}

export async function saveRule(deps: AppDeps, principal: Principal, o: { siteId: number; rule: RuleConfig & { id?: number } }) {
  const { site, repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  const { id, ...config } = o.rule;
  if (id) await repo.rule(id);
  for (const g of new Set(config.groupIDs)) await repo.group(g);
  const saved = await repo.saveRule(id, config.pattern, JSON.stringify({ ...config, groupIDs: [...new Set(config.groupIDs)] }));
  await sitesChanged(deps, [site]);
  return (await repo.ruleItems([await repo.rule(saved)]))[0];
}

export async function removeRules(deps: AppDeps, principal: Principal, o: { siteId: number; ids: number[] }) {
  const { site, repo } = await reachSite(deps, principal, o.siteId, basicAuthRepo);
  for (const id of new Set(o.ids)) await repo.rule(id);
  await repo.removeRules(o.ids);
  await sitesChanged(deps, [site]);
}
