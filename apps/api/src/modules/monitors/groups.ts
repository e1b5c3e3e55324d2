import type { monitorSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { clientOf } from '../zones/service';
import { monitorGroupsRepo } from './repo';
import { owned } from './service';

type Groups = ReturnType<typeof monitorGroupsRepo>;
type GroupRow = Awaited<ReturnType<Groups['get']>>;

async function toItems(groups: Groups, rows: GroupRow[]) {
  const members = await groups.members(rows);
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
const groupsOf = async (deps: AppDeps, principal: Principal) => monitorGroupsRepo(deps.db, await clientOf(deps, principal));

export async function ownGroup(deps: AppDeps, principal: Principal, id: number) {
  return (await groupsOf(deps, principal)).get(id);
}

export async function listGroups(deps: AppDeps, principal: Principal, query: z.infer<typeof monitorSchemas.monitorsQuery>) {
  const groups = await groupsOf(deps, principal);
  const page = await groups.page(query);
  return { data: await toItems(groups, page.data), total: page.total };
}

export async function metaGroups(deps: AppDeps, principal: Principal) {
  const rows = await (await groupsOf(deps, principal)).all();
  return rows.map((g) => ({ id: g.id, name: g.name }));
}

export async function createGroup(deps: AppDeps, principal: Principal, body: z.infer<typeof monitorSchemas.createMonitorGroupBody>) {
  const groups = await groupsOf(deps, principal);
  const id = await groups.insert({ name: body.name, memo: body.memo });
  return (await toItems(groups, [await groups.get(id)]))[0];
}

export async function updateGroup(deps: AppDeps, principal: Principal, body: z.infer<typeof monitorSchemas.updateMonitorGroupBody>) {
  const groups = await groupsOf(deps, principal);
  await groups.update(await groups.get(body.id), body);
  return (await toItems(groups, [await groups.get(body.id)]))[0];
}

export async function removeGroups(deps: AppDeps, principal: Principal, ids: number[]) {
  const groups = await groupsOf(deps, principal);
  const rows = [];
  for (const id of ids) rows.push(await groups.get(id));
  await groups.remove(rows);
}

export async function addMembers(deps: AppDeps, principal: Principal, groupId: number, monitorIds: number[]) {
  const groups = await groupsOf(deps, principal);
  const group = await groups.get(groupId);
  const { rows } = await owned(deps, principal, monitorIds);
  await groups.addMembers(group, rows);
}

export async function removeMembers(deps: AppDeps, principal: Principal, groupId: number, monitorIds: number[]) {
  const groups = await groupsOf(deps, principal);
  await groups.removeMembers(await groups.get(groupId), monitorIds);
}
