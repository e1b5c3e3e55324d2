import { useQuery } from '@tanstack/react-query';
import { networkRoutes } from '@edgekeep/contract/routes/network';
import type { networkFilter } from '@edgekeep/contract/schemas/network';
import type { z } from 'zod';
import { callRoute, type RouteOutput } from '../../api/route-client';
import type { AnalyticsTier } from '../statistics/queries';

export type NetworkFilter = z.input<typeof networkFilter>;
type Calls = typeof networkRoutes.user;
export type NetworkCall = keyof Calls;
export type NetworkAnswer<K extends NetworkCall> = RouteOutput<Calls[K]>['data'];

export const networkKeys = {
  all: (tier: AnalyticsTier) => ['network', tier] as const,
  call: (tier: AnalyticsTier, call: NetworkCall, body: NetworkFilter) => ['network', tier, call, body] as const,
};

/** One of the layer-4 calls of the tier; `enabled` waits for what the body needs (a tops answer's keys). */
export function useNetwork<K extends NetworkCall>({ tier, call, body, enabled = true }: { tier: AnalyticsTier; call: K; body: NetworkFilter; enabled?: boolean }) {
  return useQuery({
    queryKey: networkKeys.call(tier, call, body),
    queryFn: async () => (await callRoute(networkRoutes[tier][call] as Calls[K], { body } as never)).data as NetworkAnswer<K>,
    enabled,
  });
}
