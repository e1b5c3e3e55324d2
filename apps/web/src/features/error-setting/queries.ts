import { useMutation } from '@tanstack/react-query';
import { clientSettingRoutes as r } from '@edgekeep/contract/routes/client-settings';
import type { edge } from '@edgekeep/contract';
import type { ListQuery } from '../../components/list-params';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export const errorSettingKeys = { list: ['clientSettings', 'errorPages'] as const };

export const fetchDefaultErrorPages = (query: ListQuery) => callRoute(r.errorPages, { query: { page: query.page, pageSize: query.pageSize } });

const refresh = () => queryClient.invalidateQueries({ queryKey: errorSettingKeys.list });

export const useSaveDefaultErrorPage = () =>
  useMutation({
    mutationFn: ({ id, ...page }: edge.ErrorPage & { id?: number }) =>
      id === undefined ? callRoute(r.createErrorPage, { body: page }) : callRoute(r.updateErrorPage, { body: { id, ...page } }),
    onSuccess: refresh,
  });

export const useRemoveDefaultErrorPages = () => useMutation({ mutationFn: (ids: number[]) => callRoute(r.removeErrorPages, { body: { ids } }), onSuccess: refresh });
