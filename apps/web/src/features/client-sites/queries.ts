import { useMutation, useQuery } from '@tanstack/react-query';
import { accountRoutes } from '@edgekeep/contract/routes/accounts';
import { siteActionRoutes as a } from '@edgekeep/contract/routes/site-actions';
import { siteRoutes as r } from '@edgekeep/contract/routes/sites';
import type { siteLimitations } from '@edgekeep/contract/schemas/site-actions';
import type { createSiteBody, siteItem, sitesQuery, updateSiteBody } from '@edgekeep/contract/schemas/sites';
import type { z } from 'zod';
import { writeTokens } from '../../api/cookies';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Site = z.output<typeof siteItem>;
export type SiteLimitations = z.input<typeof siteLimitations>;

export const clientSiteKeys = {
  all: ['sites'] as const,
  meta: ['metaSites'] as const,
  owner: (siteId: number | undefined) => ['clientSiteOwner', siteId] as const,
  accounts: (auth: 'user' | 'client', search: string) => ['accountPicker', auth, search] as const,
};

/** The sites of the client's users (spec §4) and the client's batch actions on them. */
export const fetchSites = (query: ListQuery) => callRoute(r.sites, { query: query as z.input<typeof sitesQuery> });
/** Every site of the client's users, for pickers. */
export const useMetaSites = (enabled = true) => useQuery({ queryKey: clientSiteKeys.meta, queryFn: async () => (await callRoute(r.metaSites)).data, enabled });

/** Accounts under the client searched by name or e-mail, for the user and sub-client pickers. */
export const useAccountSearch = (auth: 'user' | 'client', search: string) =>
  useQuery({
    queryKey: clientSiteKeys.accounts(auth, search),
    queryFn: async () => (await callRoute(accountRoutes.list.client, { query: { auth, name: search || undefined, pageSize: 50 } })).data,
  });

type Ids = number[];
export const clientSites = {
  create: (body: z.input<typeof createSiteBody>) => callRoute(r.createSite, { body }),
  update: (body: z.input<typeof updateSiteBody>) => callRoute(r.updateSite, { body }),
  remove: (ids: Ids) => callRoute(r.removeSites, { body: { ids } }),
  setStatus: (body: { ids: Ids; status: number }) => callRoute(r.siteStatus, { body }),
  removeUsers: (ids: Ids, userIDs: Ids) => callRoute(r.removeSiteUsers, { body: { ids, userIDs } }),
  assignUser: (ids: Ids, userID: number) => callRoute(a.assignUser, { body: { ids, userID } }),
  changeProduct: (ids: Ids, productID: number) => callRoute(a.changeProduct, { body: { ids, productID } }),
  refreshProduct: (ids: Ids) => callRoute(a.refreshProduct, { body: { ids } }),
  limitations: (ids: Ids, limitations: SiteLimitations) => callRoute(a.limitations, { body: { ids, limitations } }),
  expired: (ids: Ids, expiredAt: string | null) => callRoute(a.expired, { body: { ids, expiredAt } }),
  forceBackup: (ids: Ids, enabled: boolean) => callRoute(a.forceBackup, { body: { ids, enabled } }),
  /** Empties the edge cache of the sites; answers on how many nodes. */
  clearCache: async (ids: Ids) => (await callRoute(a.clearCache, { body: { ids } })).data,
};

/** A change to the client's sites: `done` runs on success, as the list refreshes. */
export const useSitesChange = <V, R>(fn: (v: V) => Promise<R>, done: (result: R, v: V) => void) =>
  useMutation({
    mutationFn: fn,
    onSuccess: (result, v) => {
      done(result, v);
      return queryClient.invalidateQueries({ queryKey: clientSiteKeys.all });
    },
  });

/**
 * Client mode of the user-tier site settings: the client switches into the site's owner (`client/proxy`, so every
 * change is logged with the client as proxy); answers the owner, whose tokens then sign the user-tier calls.
 */
export const useSiteOwner = (siteId: number | undefined) =>
  useQuery({
    queryKey: clientSiteKeys.owner(siteId),
    enabled: siteId !== undefined,
    queryFn: async () => {
      const site = (await callRoute(a.site, { params: { siteId: siteId! } })).data;
      writeTokens('user', (await callRoute(accountRoutes.proxy.client, { body: { id: site.userID } })).data);
      return site.userID;
    },
    staleTime: 60_000,
  });
