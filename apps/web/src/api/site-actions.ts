import type { siteActionSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call } from './client';

export type SiteLimitations = z.infer<typeof siteActionSchemas.siteLimitations>;

const tier = 'client' as const;
const send = <T = unknown>(method: 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown) => call<T>(path, { tier, method, body });

/** The client's batch actions on its users' sites (spec §4 site actions). */
export const siteActionsApi = {
  assignUser: (ids: number[], userID: number) => send('PATCH', 'client/site/users', { ids, userID }),
  changeProduct: (ids: number[], productID: number) => send('PUT', 'client/site/product/change', { ids, productID }),
  refreshProduct: (ids: number[]) => send('PUT', 'client/site/product/refresh', { ids }),
  limitations: (ids: number[], limitations: SiteLimitations) => send('PUT', 'client/site/limitations', { ids, limitations }),
  expired: (ids: number[], expiredAt: string | null) => send('PUT', 'client/site/expired', { ids, expiredAt }),
  forceBackup: (ids: number[], enabled: boolean) => send('PUT', 'client/site/forceBackup', { ids, enabled }),
  setTags: (ids: number[], tags: string[]) => send('PUT', 'client/site/tags', { ids, tags }),
  clearCache: (ids: number[]) => send<{ nodes: number }>('DELETE', 'client/site/currentCache', { ids }),
  tags: () => call<string[]>('client/site/tags', { tier }),
};
