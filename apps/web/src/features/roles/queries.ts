import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { accountRoutes as r } from '@edgekeep/contract/routes/accounts';
import type { roleBody, roleItem } from '@edgekeep/contract/schemas/accounts';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type RoleItem = z.output<typeof roleItem>;
export type RoleBody = z.input<typeof roleBody>;

export const roleKeys = {
  list: (tier: Tier) => ['roles', tier] as const,
  all: (tier: Tier) => ['roles', tier, 'all'] as const,
  meta: (tier: Tier) => ['metaRoles', tier] as const,
};

/** The tenant's custom roles (spec §7 roles). */
export const roles = {
  list: (tier: Tier, query: ListQuery) => callRoute(r.roles[tier], { query: { page: query.page, pageSize: query.pageSize } }),
  /** Creates a role, or changes the one whose id is given. */
  save: (tier: Tier, body: RoleBody, roleId?: number): Promise<unknown> =>
    roleId ? callRoute(r.updateRole[tier], { params: { roleId }, body }) : callRoute(r.createRole[tier], { body }),
  remove: (tier: Tier, roleId: number) => callRoute(r.removeRole[tier], { params: { roleId } }),
};

/** A role changes the role list and the role pickers. */
export const refreshRoles = (tier: Tier) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: roleKeys.list(tier) }), queryClient.invalidateQueries({ queryKey: roleKeys.meta(tier) })]);

/** One role, found among every role of the tenant (a page of MAX_PAGE_SIZE), for the role form. */
export const useRole = (tier: Tier, id: number | undefined) =>
  useQuery({
    queryKey: roleKeys.all(tier),
    queryFn: () => roles.list(tier, { page: 1, pageSize: MAX_PAGE_SIZE }),
    enabled: id !== undefined,
    select: (page) => page.data.find((r) => r.id === id),
  });
/** Every role, for the account form's picker. */
export const useMetaRoles = (tier: Tier, enabled: boolean) =>
  useQuery({ queryKey: roleKeys.meta(tier), queryFn: async () => (await callRoute(r.metaRoles[tier], { delayMs: 0 })).data, enabled });
