import { useMutation, useQuery } from '@tanstack/react-query';
import { notificationRoutes as r } from '@edgekeep/contract/routes/notifications';
import type { botSettingBody, notifyPreferences } from '@edgekeep/contract/schemas/notifications';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export const notifyKeys = {
  bot: (tier: Tier) => ['notify-setting', tier, 'bot'] as const,
  preferences: (tier: Tier) => ['notify-setting', tier, 'preferences'] as const,
};

export const useBotSetting = (tier: Tier) => useQuery({ queryKey: notifyKeys.bot(tier), queryFn: () => callRoute(r.tg[tier].get) });
export const useSaveBotSetting = (tier: Tier) =>
  useMutation({
    mutationFn: (body: z.input<typeof botSettingBody>) => callRoute(r.tg[tier].put, { body }),
    onSuccess: (answer) => queryClient.setQueryData(notifyKeys.bot(tier), answer),
  });
export const useSendTestMessage = (tier: Tier) =>
  useMutation({
    mutationFn: () => callRoute(r.tg[tier].test),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notifyKeys.bot(tier) }),
  });

export const usePreferences = (tier: Tier) => useQuery({ queryKey: notifyKeys.preferences(tier), queryFn: () => callRoute(r.notify[tier].get) });
export const useSavePreferences = (tier: Tier) =>
  useMutation({
    mutationFn: (body: z.input<typeof notifyPreferences>) => callRoute(r.notify[tier].put, { body }),
    onSuccess: (answer) => queryClient.setQueryData(notifyKeys.preferences(tier), answer),
  });
