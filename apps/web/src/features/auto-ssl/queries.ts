import { useMutation, useQuery } from '@tanstack/react-query';
import { autoCertificateRoutes as r } from '@edgekeep/contract/routes/auto-certificates';
import type { AutoCertificate, autoCertificatesQuery, googleTrustBody, providerSettingBody } from '@edgekeep/contract/schemas/auto-certificates';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export const autoSslKeys = {
  list: ['autoCertificates'] as const,
  site: (siteId: number) => ['autoCertificates', 'site', siteId] as const,
  provider: ['autoCertificates', 'provider'] as const,
  googleTrust: ['autoCertificates', 'googleTrust'] as const,
};

/** How often lists poll while an order is pending or running, so progress shows without a reload. */
export const PROGRESS_POLL_MS = 3000;
export const inProgress = (rows: Pick<AutoCertificate, 'status'>[] | undefined) => (rows ?? []).some((r) => r.status === 'pending' || r.status === 'processing');

export const fetchAutoCertificates = (query: ListQuery) => callRoute(r.list, { query: query as z.input<typeof autoCertificatesQuery> });

export const useReapply = () =>
  useMutation({
    mutationFn: (ids: number[]) => callRoute(r.renew, { body: { ids } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: autoSslKeys.list }),
  });

/** The auto-SSL state of a site's domains, polled while one is being issued. */
export const useSiteAutoCertificates = (siteId: number, enabled = true) =>
  useQuery({
    queryKey: autoSslKeys.site(siteId),
    queryFn: async () => (await callRoute(r.site, { params: { siteId } })).data,
    enabled,
    refetchInterval: (q) => (inProgress(q.state.data) ? PROGRESS_POLL_MS : false),
  });

export const useProviderSetting = () => useQuery({ queryKey: autoSslKeys.provider, queryFn: async () => (await callRoute(r.provider)).data });

export const useSaveProvider = () =>
  useMutation({
    mutationFn: (body: z.input<typeof providerSettingBody>) => callRoute(r.setProvider, { body }),
    onSuccess: (answer) => queryClient.setQueryData(autoSslKeys.provider, answer.data),
  });

export const useGoogleTrustSetting = () => useQuery({ queryKey: autoSslKeys.googleTrust, queryFn: async () => (await callRoute(r.googleTrust)).data });

export const useSaveGoogleTrust = () =>
  useMutation({
    mutationFn: (body: z.input<typeof googleTrustBody>) => callRoute(r.setGoogleTrust, { body }),
    onSuccess: (answer) => queryClient.setQueryData(autoSslKeys.googleTrust, answer.data),
  });
