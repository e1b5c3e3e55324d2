import { useMutation } from '@tanstack/react-query';
import { virtualNodeRoutes as r } from '@edgekeep/contract/routes/virtual-nodes';
import type { createVirtualNodeBody, virtualNodeItem, virtualNodesQuery } from '@edgekeep/contract/schemas/virtual-nodes';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type VirtualNode = z.output<typeof virtualNodeItem>;
export type VirtualNodeBody = z.input<typeof createVirtualNodeBody>;

export const virtualNodeKeys = {
  all: ['virtualNodes'] as const,
  ofZone: (zoneID: number) => ['virtualNodes', zoneID] as const,
};

/** The virtual nodes of a zone (spec §7 virtual nodes); the zone chosen, kept in the URL as zoneID, goes in the path. */
export const fetchVirtualNodes = (zoneID: number, { zoneID: _chosen, ...query }: ListQuery) =>
  callRoute(r.list, { params: { zoneID }, query: query as z.input<typeof virtualNodesQuery> });

const refresh = () => queryClient.invalidateQueries({ queryKey: virtualNodeKeys.all });

/** Creates a virtual node in the zone, or changes the one whose id is given. */
export const useSaveVirtualNode = (zoneID: number, id?: number) =>
  useMutation({
    mutationFn: (body: VirtualNodeBody): Promise<unknown> =>
      id ? callRoute(r.update, { params: { zoneID }, body: { id, ...body } }) : callRoute(r.create, { params: { zoneID }, body }),
    onSuccess: refresh,
  });
export const useRemoveVirtualNode = (done: () => void) =>
  useMutation({
    mutationFn: (node: VirtualNode) => callRoute(r.remove, { params: { zoneID: node.zoneID }, body: { id: node.id } }),
    onSuccess: () => {
      done();
      return refresh();
    },
  });
