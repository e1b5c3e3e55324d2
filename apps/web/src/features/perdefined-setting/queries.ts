import { useMutation, useQuery } from '@tanstack/react-query';
import { clientSettingRoutes as r } from '@edgekeep/contract/routes/client-settings';
import type { TriggerRates } from '@edgekeep/contract/schemas/client-settings';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export const triggerRateKeys = { client: ['clientSettings', 'triggerRates'] as const };

export const useTriggerRates = () => useQuery({ queryKey: triggerRateKeys.client, queryFn: async () => (await callRoute(r.frequency)).data });

export const useSetTriggerRates = () =>
  useMutation({ mutationFn: async (body: TriggerRates) => (await callRoute(r.setFrequency, { body })).data, onSuccess: (answer) => queryClient.setQueryData(triggerRateKeys.client, answer) });
