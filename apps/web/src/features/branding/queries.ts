import { useMutation, useQuery } from '@tanstack/react-query';
import { brandingRoutes } from '@edgekeep/contract/routes/client-settings';
import type { BrandingField, BrandingImage } from '@edgekeep/contract/schemas/branding';
import { callRaw } from '../../api/client';
import { callRoute, routePath } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export const brandingKeys = { own: ['branding', 'client', 'own'] as const, shown: ['branding'] as const };

export const useOwnBranding = () => useQuery({ queryKey: brandingKeys.own, queryFn: async () => (await callRoute(brandingRoutes.get)).data });

/** What the sign-in screens and the shell read (every area's `{tier}/logo`) changes with it. */
const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: brandingKeys.own }), queryClient.invalidateQueries({ queryKey: brandingKeys.shown })]);

export type BrandingUpload = { title?: string; copyright?: string } & Partial<Record<BrandingImage, File>>;

/** Texts and images go up as form data (spec §7: client/setting/logo); the answer is read with the route's schema. */
async function upload(values: BrandingUpload) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') form.append(name, value);
  const res = await callRaw(routePath(brandingRoutes.upload, {}), { method: brandingRoutes.upload.method, tier: 'client', body: form });
  return brandingRoutes.upload.response.parse(await res.json()).data;
}

export const useUploadBranding = () => useMutation({ mutationFn: upload, onSuccess: refresh });

export const useResetBranding = () =>
  useMutation({ mutationFn: async (fields: BrandingField[]) => (await callRoute(brandingRoutes.reset, { body: { fields } })).data, onSuccess: refresh });
