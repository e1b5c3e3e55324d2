import type { monitorSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { clientOf } from '../zones/service';
import { owned } from './service';

type GroupRow = Selectable<Database['monitor_groups']>;

async function toItems(deps: AppDeps, rows: GroupRow[]) {
  const members = rows.length ? await deps.db.selectFrom('monitor_group_members').selectAll().where('group_id', 'in', rows.map((r) => r.id)).execute() : [];
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    memo: g.memo,
    monitorIDs: members.filter((m) => m.group_id === g.id).map((m) => m.monitor_id).sort((a, b) => a - b),
    createdAt: g.created_at,
    updatedAt: g.updated_at,
  }));
}

/** Groups belong to the client that made them. */
const groupsOf = async (deps: AppDeps, principal: Principal) => {
  const actor = await clientOf(deps, principal);
  return deps.db.selectFrom('monitor_groups').selectAll().where('client_id', '=', actor.id);
};

export async function ownGroup(deps: AppDeps, principal: Principal, id: number) {
  const row = await (await groupsOf(deps, principal)).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('monitor group');
  return row;
}

export async function listGroups(deps: AppDeps, principal: Principal, query: z.infer<typeof monitorSchemas.monitorsQuery>) {
  const page = await paginate(await groupsOf(deps, principal), { page: query, sortable: { name: 'name', createdAt: 'created_at' }, defaultSort: { column: 'created_at', order: 'desc' } });
  return { data: await toItems(deps, page.data), total: page.total };
}

export async function metaGroups(deps: AppDeps, principal: Principal) {
  const rows = await (await groupsOf(deps, principal)).orderBy('name').execute();
  return rows.map((g) => ({ id: g.id, name: g.name }));
}

export async function createGroup(deps: AppDeps, principal: Principal, body: z.infer<typeof monitorSchemas.createMonitorGroupBody>) {
  const actor = await clientOf(deps, principal);
  const at = now();
  const row = await deps.db
    .insertInto('monitor_groups')
    .values({ client_id: actor.id, name: body.name, memo: body.memo, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await toItems(deps, [await ownGroup(deps, principal, row.id)]))[0];
}

export async function updateGroup(deps: AppDeps, principal: Principal, body: z.infer<typeof monitorSchemas.updateMonitorGroupBody>) {
  await ownGroup(deps, principal, body.id);
  await deps.db
    .updateTable('monitor_groups')
    .set({ ...(body.name === undefined ? {} : { name: body.name }), ...(body.memo === undefined ? {} : { memo: body.memo }), updated_at: now() })
    .where('id', '=', body.id)
    .execute();
  return (await toItems(deps, [await ownGroup(deps, principal, body.id)]))[0];
}

export async function removeGroups(deps: AppDeps, principal: Principal, ids: number[]) {
  for (const id of ids) await ownGroup(deps, principal, id);
  await deps.db.deleteFrom('monitor_groups').where('id', 'in', ids).execute();
}

export async function addMembers(deps: AppDeps, principal: Principal, groupId: number, monitorIds: number[]) {
  await ownGroup(deps, principal, groupId);
  await owned(deps, principal, monitorIds);
  const present = (await deps.db.selectFrom('monitor_group_members').select('monitor_id').where('group_id', '=', groupId).execute()).map((m) => m.monitor_id);
  const fresh = [...new Set(monitorIds)].filter((id) => !present.includes(id));
  if (fresh.length) await deps.db.insertInto('monitor_group_members').values(fresh.map((monitor_id) => ({ group_id: groupId, monitor_id }))).execute();
}

export async function removeMembers(deps: AppDeps, principal: Principal, groupId: number, monitorIds: number[]) {
  await ownGroup(deps, principal, groupId);
  await deps.db.deleteFrom('monitor_group_members').where('group_id', '=', groupId).where('monitor_id', 'in', monitorIds).execute();
}

