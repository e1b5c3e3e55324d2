import { useMutation, useQuery } from '@tanstack/react-query';
import { clientSettingRoutes } from '@edgekeep/contract/routes/client-settings';
import type { NginxContext } from '@edgekeep/contract/schemas/client-settings';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export const nginxKeys = { all: ['clientSettings', 'nginx'] as const };

export const useNginxSetting = (refetchInterval?: number) =>
  useQuery({ queryKey: nginxKeys.all, queryFn: async () => (await callRoute(clientSettingRoutes.nginx)).data, refetchInterval });

export const useSetNginx = () =>
  useMutation({
    mutationFn: async ({ context, directives }: { context: NginxContext; directives: string }) =>
      (await callRoute(clientSettingRoutes.setNginx, { params: { context }, body: { directives } })).data,
    onSuccess: (answer) => queryClient.setQueryData(nginxKeys.all, answer),
  });
