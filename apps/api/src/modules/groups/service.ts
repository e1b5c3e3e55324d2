import { Codes, type siteSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { refreshResolutions } from '../resolutions/service';
import { zonesRepo } from '../zones/repo';
import { clientOf } from '../zones/service';
import { groupsRepo, type GroupRow } from './repo';

type Groups = ReturnType<typeof groupsRepo>;

async function withMembers(groups: Groups, rows: GroupRow[]) {
  const members = await groups.members(rows);
  return rows.map((g) => ({
    id: g.id,
    zoneID: g.zone_id,
    name: g.name,
    line: g.line as z.infer<typeof siteSchemas.groupItem>['line'],
    priority: g.priority,
    dnsResolve: g.dns_resolve === 1,
    nodeIDs: members.filter((m) => m.group_id === g.id).map((m) => m.node_id),
    createdAt: g.created_at,
    updatedAt: g.updated_at,
  }));
}

/** The groups of a zone the caller sees (`owned`: one it owns, to change them). */
async function groupsOf(deps: AppDeps, principal: Principal, zoneId: number, owned = false) {
  const zones = zonesRepo(deps, await clientOf(deps, principal));
  return groupsRepo(deps.db, await (owned ? zones.owned(zoneId) : zones.get(zoneId)));
}

export async function listGroups(deps: AppDeps, principal: Principal, zoneId: number, page: { page: number; pageSize: number }) {
  const groups = await groupsOf(deps, principal, zoneId);
  const result = await groups.page(page);
  return { data: await withMembers(groups, result.data), total: result.total };
}

export async function metaGroups(deps: AppDeps, principal: Principal, zoneId: number) {
  return (await groupsOf(deps, principal, zoneId)).names();
}

/** Every node of a group must be a node of the group's zone (203005). */
async function checkNodes(groups: Groups, nodeIds: number[]) {
  if (!nodeIds.length) return;
  if ((await groups.zoneNodeCount(nodeIds)) !== new Set(nodeIds).size) throw new ApiError(Codes.InvalidGroupNode);
}

type CreateBody = z.infer<typeof siteSchemas.createGroupBody>;
export async function createGroup(deps: AppDeps, principal: Principal, zoneId: number, body: CreateBody) {
  const groups = await groupsOf(deps, principal, zoneId, true);
  await checkNodes(groups, body.nodeIDs);
  const row = await groups.insert({ name: body.name, line: body.line, priority: body.priority, dns_resolve: body.dnsResolve ? 1 : 0 });
  await groups.setMembers(row, body.nodeIDs);
  await refreshResolutions(deps, [zoneId]);
  return (await withMembers(groups, [row]))[0];
}

type UpdateBody = z.infer<typeof siteSchemas.updateGroupBody>;
export async function updateGroup(deps: AppDeps, principal: Principal, zoneId: number, body: UpdateBody) {
  const groups = await groupsOf(deps, principal, zoneId, true);
  const group = await groups.get(body.id);
  if (body.nodeIDs) await checkNodes(groups, body.nodeIDs);
  await groups.update(group, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.line === undefined ? {} : { line: body.line }),
    ...(body.priority === undefined ? {} : { priority: body.priority }),
    ...(body.dnsResolve === undefined ? {} : { dns_resolve: body.dnsResolve ? 1 : 0 }),
  });
  if (body.nodeIDs) await groups.setMembers(group, body.nodeIDs);
  await refreshResolutions(deps, [zoneId]);
  return (await withMembers(groups, [await groups.get(body.id)]))[0];
}

export async function removeGroup(deps: AppDeps, principal: Principal, zoneId: number, id: number) {
  const groups = await groupsOf(deps, principal, zoneId, true);
  const group = await groups.get(id);
  if (await groups.inUse(group)) throw new ApiError(Codes.GroupInUse);
  await groups.remove(group);
  await refreshResolutions(deps, [zoneId]);
}
