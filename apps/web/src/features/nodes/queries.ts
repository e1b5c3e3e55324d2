import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { infraRoutes as r } from '@edgekeep/contract/routes/infra';
import { callRoute } from '../../api/route-client';

export const nodeKeys = {
  all: ['nodes'] as const,
  ofZone: (zoneID: number | undefined) => ['nodes', 'ofZone', zoneID] as const,
};

/** Every node of a zone, for the pickers of the zone's groups and virtual nodes. */
export const useZoneNodes = (zoneID: number | undefined) =>
  useQuery({
    queryKey: nodeKeys.ofZone(zoneID),
    queryFn: async () => (await callRoute(r.nodes, { query: { zoneID: String(zoneID), pageSize: MAX_PAGE_SIZE } })).data,
    enabled: zoneID !== undefined,
  });
