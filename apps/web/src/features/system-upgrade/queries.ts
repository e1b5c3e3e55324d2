import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { nodeUpgradeRoutes } from '@edgekeep/contract/routes/node-upgrades';
import type { upgradeNodeItem, upgradeNodesQuery } from '@edgekeep/contract/schemas/node-upgrades';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type UpgradeNode = z.output<typeof upgradeNodeItem>;

export const upgradeKeys = {
  all: ['nodeUpgrades'] as const,
  list: ['nodeUpgrades', 'list'] as const,
  latest: ['nodeUpgrades', 'latestVersion'] as const,
  log: (nodeId: number) => ['nodeUpgrades', 'log', nodeId] as const,
};

export const fetchUpgradeNodes = (query: ListQuery) => callRoute(nodeUpgradeRoutes.nodes, { query: query as z.input<typeof upgradeNodesQuery> });

export const useLatestVersion = () => useQuery({ queryKey: upgradeKeys.latest, queryFn: () => callRoute(nodeUpgradeRoutes.latestVersion) });

/** The node's last upgrade and its steps, followed while it runs. */
export const useUpgradeLog = (nodeId: number) =>
  useQuery({
    queryKey: upgradeKeys.log(nodeId),
    queryFn: () => callRoute(nodeUpgradeRoutes.logs, { params: { nodeID: nodeId } }),
    refetchInterval: (q) => (q.state.data?.data.state === 'updating' ? 2000 : false),
  });

export function useUpgradeNodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => callRoute(nodeUpgradeRoutes.upgrade, { body: { ids } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: upgradeKeys.all }),
  });
}
