import { useMutation, useQuery } from '@tanstack/react-query';
import { systemSettingRoutes as r } from '@edgekeep/contract/routes/system-settings';
import { systemRoutes } from '@edgekeep/contract/routes/system';
import type { z } from 'zod';
import type { accountVerifySetting, cdnRayLogSetting, emailSettingBody, emailTestBody } from '@edgekeep/contract/schemas/system-settings';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

/** The client-wide settings stored whole under `setting/system/`. */
export type PlainSetting = 'outgoingURL' | 'CDNRayLog' | 'accountVerify' | 'restrictGroupCIDRs';

export const systemSettingKeys = {
  plain: (name: PlainSetting) => ['system-setting', name] as const,
  email: ['system-setting', 'email'] as const,
  health: ['system-setting', 'health'] as const,
};

export const useOutgoingUrl = () => useQuery({ queryKey: systemSettingKeys.plain('outgoingURL'), queryFn: () => callRoute(r.outgoingURL.get) });
export const useCdnRayLog = () => useQuery({ queryKey: systemSettingKeys.plain('CDNRayLog'), queryFn: () => callRoute(r.CDNRayLog.get) });
export const useAccountVerify = () => useQuery({ queryKey: systemSettingKeys.plain('accountVerify'), queryFn: () => callRoute(r.accountVerify.get) });
export const useRestrictCidrs = () => useQuery({ queryKey: systemSettingKeys.plain('restrictGroupCIDRs'), queryFn: () => callRoute(r.restrictGroupCIDRs.get) });

const stored = (name: PlainSetting) => (answer: unknown) => queryClient.setQueryData(systemSettingKeys.plain(name), answer);

export const useSaveOutgoingUrl = () =>
  useMutation({ mutationFn: (body: { url: string }) => callRoute(r.outgoingURL.put, { body }), onSuccess: stored('outgoingURL') });
export const useSaveCdnRayLog = () =>
  useMutation({ mutationFn: (body: z.input<typeof cdnRayLogSetting>) => callRoute(r.CDNRayLog.put, { body }), onSuccess: stored('CDNRayLog') });
export const useSaveAccountVerify = () =>
  useMutation({ mutationFn: (body: z.input<typeof accountVerifySetting>) => callRoute(r.accountVerify.put, { body }), onSuccess: stored('accountVerify') });
export const useSaveRestrictCidrs = () =>
  useMutation({ mutationFn: (body: { cidrs: string[] }) => callRoute(r.restrictGroupCIDRs.put, { body }), onSuccess: stored('restrictGroupCIDRs') });

export const useEmailSetting = () => useQuery({ queryKey: systemSettingKeys.email, queryFn: () => callRoute(r.email.get) });
export const useSaveEmailSetting = () =>
  useMutation({
    mutationFn: (body: z.input<typeof emailSettingBody>) => callRoute(r.email.put, { body }),
    onSuccess: (answer) => queryClient.setQueryData(systemSettingKeys.email, answer),
  });
export const useSendTestMail = () => useMutation({ mutationFn: (body: z.input<typeof emailTestBody>) => callRoute(r.email.test, { body }) });

export const useHealth = () => useQuery({ queryKey: systemSettingKeys.health, queryFn: () => callRoute(systemRoutes.health), staleTime: 0 });
