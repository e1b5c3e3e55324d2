import { useQuery } from '@tanstack/react-query';
import { accountRoutes as r } from '@edgekeep/contract/routes/accounts';
import type { apiTokenItem, createdApiToken } from '@edgekeep/contract/schemas/accounts';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';

export type ApiTokenItem = z.output<typeof apiTokenItem>;
export type CreatedApiToken = z.output<typeof createdApiToken>;

export const apiTokenKeys = { list: (tier: Tier) => ['apiTokens', tier] as const };

/** The signed-in account's API tokens (spec §7 apiTokens). */
export const useApiTokens = (tier: Tier) => useQuery({ queryKey: apiTokenKeys.list(tier), queryFn: async () => (await callRoute(r.apiTokens, { tier })).data });
export const apiTokens = {
  /** A new token, shown once. */
  create: async (tier: Tier, body: { name: string; expiredAt?: string }) => (await callRoute(r.createApiToken, { tier, body })).data,
  remove: (tier: Tier, ids: number[]) => callRoute(r.removeApiTokens, { tier, body: { ids } }),
};
export const refreshApiTokens = (tier: Tier) => queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(tier) });
