import { useMutation, useQueryClient } from '@tanstack/react-query';
import { logRoutes } from '@edgekeep/contract/routes/statistics';
import type { ExportApplyBody, exportItem, exportsQuery } from '@edgekeep/contract/schemas/logs';
import type { z } from 'zod';
import { callRoute, downloadRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';
import type { AnalyticsTier } from '../statistics/queries';

export type ExportItem = z.output<typeof exportItem>;
export type ExportStatus = ExportItem['status'];

export const exportKeys = {
  list: (tier: AnalyticsTier) => ['logExports', tier] as const,
};

export const fetchExports = (tier: AnalyticsTier, query: ListQuery) =>
  callRoute(logRoutes[tier].list, { query: query as z.input<typeof exportsQuery> });

export const downloadExport = (tier: AnalyticsTier, item: ExportItem) =>
  downloadRoute(logRoutes[tier].download, { params: { ID: item.id }, fallbackName: item.fileName || `export-${item.id}.csv.gz` });

/** Apply, retry and delete: each refreshes the list once it is done. */
export function useExportMutations(tier: AnalyticsTier) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: exportKeys.list(tier) });
  return {
    apply: useMutation({ mutationFn: (body: ExportApplyBody) => callRoute(logRoutes[tier].apply, { body }), onSuccess }),
    retry: useMutation({ mutationFn: (ids: number[]) => callRoute(logRoutes[tier].retry, { body: { ids } }), onSuccess }),
    remove: useMutation({ mutationFn: (ids: number[]) => callRoute(logRoutes[tier].remove, { body: { ids } }), onSuccess }),
  };
}
