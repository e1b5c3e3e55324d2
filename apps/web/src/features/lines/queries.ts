import { useMutation, useQuery } from '@tanstack/react-query';
import { infraRoutes } from '@edgekeep/contract/routes/infra';
import { siteRoutes as r } from '@edgekeep/contract/routes/sites';
import type { resolutionItem, resolutionsQuery } from '@edgekeep/contract/schemas/infra';
import type { createGroupBody, groupItem } from '@edgekeep/contract/schemas/sites';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Group = z.output<typeof groupItem>;
export type GroupBody = z.input<typeof createGroupBody>;
export type DnsLine = Group['line'];
export type Resolution = z.output<typeof resolutionItem>;

export const lineKeys = {
  groups: ['groups'] as const,
  groupsOf: (zoneID: number) => ['groups', zoneID] as const,
  resolutions: (zoneID: number) => ['resolutions', zoneID] as const,
  dnsLines: ['dnsLines'] as const,
};

/** A zone's resolution groups (lines) and the DNS answers they give (spec §7 lines). */
export const fetchGroups = (zoneID: number, query: ListQuery) => callRoute(r.groups, { params: { zoneID }, query: { page: query.page, pageSize: query.pageSize } });
export const fetchResolutions = (zoneID: number, query: ListQuery) =>
  callRoute(infraRoutes.resolutions, { query: { ...query, zoneID: String(zoneID) } as z.input<typeof resolutionsQuery> });
/** The DNS lines a group can answer for; they do not change while the console runs. */
export const useDnsLines = () => useQuery({ queryKey: lineKeys.dnsLines, queryFn: async () => (await callRoute(r.dnsLines)).data, staleTime: Infinity });

const refresh = () => queryClient.invalidateQueries({ queryKey: lineKeys.groups });

/** Creates a group in the zone, or changes the one whose id is given. */
export const useSaveGroup = (zoneID: number, id?: number) =>
  useMutation({
    mutationFn: (body: GroupBody): Promise<unknown> =>
      id ? callRoute(r.updateGroup, { params: { zoneID }, body: { ...body, id } }) : callRoute(r.createGroup, { params: { zoneID }, body }),
    onSuccess: refresh,
  });
export const useRemoveGroup = (done: () => void) =>
  useMutation({
    mutationFn: (group: Group) => callRoute(r.removeGroup, { params: { zoneID: group.zoneID }, body: { id: group.id } }),
    onSuccess: () => {
      done();
      return refresh();
    },
  });
