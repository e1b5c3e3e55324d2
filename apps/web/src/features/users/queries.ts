import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { accountRoutes as r } from '@edgekeep/contract/routes/accounts';
import { authRoutes } from '@edgekeep/contract/routes/auth';
import type { accountItem, accountsQuery, createAccountBody, updateAccountBody } from '@edgekeep/contract/schemas/accounts';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { Page } from '../../components/data-table';
import type { ListQuery } from '../../components/list-params';

export type AccountItem = z.output<typeof accountItem>;
export type CreateAccountBody = z.input<typeof createAccountBody>;
export type UpdateAccountBody = z.input<typeof updateAccountBody>;

export const accountKeys = {
  all: (tier: Tier) => ['accounts', tier] as const,
  list: (tier: Tier) => ['accounts', tier, 'list'] as const,
  clients: (tier: Tier) => ['accounts', tier, 'clients'] as const,
  subs: (tier: Tier, id: number | undefined, page: number) => ['accounts', tier, 'subs', id, page] as const,
};

/** Accounts below the signed-in one, in each area (spec §7 "Account calls"). */
export const accountCalls = {
  list: (tier: Tier, query: ListQuery) => callRoute(r.list[tier], { query: query as z.input<typeof accountsQuery> }),
  create: async (tier: Tier, body: CreateAccountBody) => (await callRoute(r.create[tier], { body })).data,
  update: async (tier: Tier, body: UpdateAccountBody) => (await callRoute(r.update[tier], { body })).data,
  remove: (tier: Tier, ids: number[]) => callRoute(r.remove[tier], { body: { ids } }),
  setPassword: (tier: Tier, body: { id: number; password: string }) => callRoute(authRoutes.subPassword[tier], { body }),
  resendEmail: (tier: Tier, id: number) => callRoute(authRoutes.resendEmail[tier], { body: { id } }),
  /** Switches into an account below: answers its tokens. */
  proxy: async (tier: Tier, id: number) => (await callRoute(r.proxy[tier], { body: { id } })).data,
};

/** The accounts of every list page the console holds (the rows on screen among them). */
export const cachedAccounts = (tier: Tier) => queryClient.getQueriesData<Page<AccountItem>>({ queryKey: accountKeys.list(tier) }).flatMap(([, page]) => page?.data ?? []);

/** The lists of accounts refresh after a change. */
export const refreshAccounts = (tier: Tier) => queryClient.invalidateQueries({ queryKey: accountKeys.all(tier) });

/** The clients below the signed-in admin or client, for the client filter. */
export const useClientAccounts = (tier: Tier) =>
  useQuery({ queryKey: accountKeys.clients(tier), queryFn: () => accountCalls.list(tier, { auth: 'client', pageSize: 500 }), enabled: tier !== 'user' });
/** The user's sub-users, for sharing a site. */
export const useSubUsers = () => useQuery({ queryKey: accountKeys.list('user'), queryFn: () => accountCalls.list('user', { page: 1, pageSize: MAX_PAGE_SIZE }) });
/** The accounts directly below one account, a page at a time. */
export const useSubAccounts = (tier: Tier, id: number | undefined, page: number) =>
  useQuery({
    queryKey: accountKeys.subs(tier, id, page),
    queryFn: () => callRoute(r.subs[tier], { params: { userId: id! }, query: { page, pageSize: DEFAULT_PAGE_SIZE } }),
    enabled: id !== undefined,
    placeholderData: keepPreviousData,
  });
