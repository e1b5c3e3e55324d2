import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dnsSettingRoutes as r } from '@edgekeep/contract/routes/dns-settings';
import type { cnameItem, cnamesQuery, createCnameBody, dnsSettingBody, dnsTaskItem, dnsTasksQuery, updateCnameBody } from '@edgekeep/contract/schemas/dns-settings';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';
import { selfQueryKey } from '../../app/use-self';

export type DnsSettingInput = z.input<typeof dnsSettingBody>;
export type DnsTask = z.output<typeof dnsTaskItem>;
export type Cname = z.output<typeof cnameItem>;

export const dnsKeys = {
  setting: ['dnsSetting'] as const,
  tasks: ['dnsSetting', 'unprocessed'] as const,
  cnames: ['dnsSetting', 'cnames'] as const,
};

export const useDnsSetting = () => useQuery({ queryKey: dnsKeys.setting, queryFn: async () => (await callRoute(r.get)).data });

export const fetchDnsTasks = (query: ListQuery) => callRoute(r.unprocessed, { query: query as z.input<typeof dnsTasksQuery> });
export const fetchCnames = (query: ListQuery) => callRoute(r.cnames, { query: query as z.input<typeof cnamesQuery> });

/** Test, save, repair and recovery; saving also reloads self information (its DNS type decides the landing screen). */
export function useDnsMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: dnsKeys.setting });
  return {
    test: useMutation({ mutationFn: (body: DnsSettingInput) => callRoute(r.test, { body }) }),
    save: useMutation({
      mutationFn: (body: DnsSettingInput) => callRoute(r.put, { body }),
      onSuccess: (answer) => {
        queryClient.setQueryData(dnsKeys.setting, answer.data);
        void refresh();
        void queryClient.invalidateQueries({ queryKey: selfQueryKey('client') });
      },
    }),
    repair: useMutation({ mutationFn: () => callRoute(r.repair), onSuccess: refresh }),
    recovery: useMutation({ mutationFn: () => callRoute(r.recovery), onSuccess: refresh }),
  };
}

export function useCnameMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: dnsKeys.cnames });
  return {
    create: useMutation({ mutationFn: (body: z.input<typeof createCnameBody>) => callRoute(r.createCname, { body }), onSuccess }),
    update: useMutation({ mutationFn: (body: z.input<typeof updateCnameBody>) => callRoute(r.updateCname, { body }), onSuccess }),
    remove: useMutation({ mutationFn: (ids: number[]) => callRoute(r.removeCnames, { body: { ids } }), onSuccess }),
  };
}
