import { accountRoutes } from '@edgekeep/contract/routes/accounts';
import { licenseRoutes as r } from '@edgekeep/contract/routes/licenses';
import type { accountItem, accountsQuery } from '@edgekeep/contract/schemas/accounts';
import type { clientLicense, licenseFields, licenseItem, licensesQuery, orderInput } from '@edgekeep/contract/schemas/licenses';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type License = z.output<typeof licenseItem>;
export type LicenseFields = z.output<typeof licenseFields>;
export type ClientLicense = z.output<typeof clientLicense>;
export type OrderInput = z.input<typeof orderInput>;
export type Account = z.output<typeof accountItem>;

/** Spec §7 "Admin license calls", the offline activation, and the client's own license. */
export const licenseCalls = {
  list: (query: ListQuery) => callRoute(r.list, { query: query as z.input<typeof licensesQuery> }),
  create: async (body: LicenseFields) => (await callRoute(r.create, { body })).data,
  update: async (body: Partial<LicenseFields> & { id: number }) => (await callRoute(r.update, { body })).data,
  remove: (ids: number[]) => callRoute(r.remove, { body: { ids } }),
  issue: async (body: { id: number; clientID: number }) => (await callRoute(r.issue, { body })).data,
  orders: async (userId: number) => (await callRoute(r.orders, { params: { userId } })).data,
  setOrders: async (userId: number, orders: OrderInput[]) => (await callRoute(r.setOrders, { params: { userId }, body: { orders } })).data,
  overview: async () => (await callRoute(r.overview)).data,
  usageOf: async (userId: number) => (await callRoute(r.usage, { params: { userId } })).data,
  offlines: (query: ListQuery) => callRoute(r.offlines, { query: query as z.input<typeof licensesQuery> }),
  updateOffline: async (body: Partial<LicenseFields> & { id: number }) => (await callRoute(r.updateOffline, { body })).data,
  removeOffline: (ids: number[]) => callRoute(r.removeOffline, { body: { ids } }),
  issueOffline: async (body: LicenseFields & { request: string }) => (await callRoute(r.issueOffline, { body })).data,
  unregister: (ids: number[]) => callRoute(r.unregister, { body: { ids } }),
  /** The clients below the admin, for the pickers. */
  clients: (query: ListQuery) => callRoute(accountRoutes.list.admin, { query: { ...query, auth: 'client' } as z.input<typeof accountsQuery> }),
  mine: async () => (await callRoute(r.mine)).data,
  registration: async () => (await callRoute(r.register)).data,
  activate: async (key: string) => (await callRoute(r.activate, { body: { key } })).data,
  updateKey: async (key: string) => (await callRoute(r.updateKey, { query: { key } })).data,
};

export const licenseKeys = {
  list: ['admin', 'licenses'] as const,
  /** A client's online and offline licenses (under the list key: a change to the list refreshes them). */
  of: (clientId?: number) => ['admin', 'licenses', 'of', clientId] as const,
  orders: (clientId?: number) => ['admin', 'orders', clientId] as const,
  usage: (clientId: number) => ['admin', 'usage', clientId] as const,
  overview: ['admin', 'licenseOverview'] as const,
  clientPicker: (name: string) => ['admin', 'clients', 'picker', name] as const,
  dashboardClients: ['admin', 'clients', 'dashboard'] as const,
  offline: ['admin', 'offlineLicenses'] as const,
  mine: ['client', 'license'] as const,
};

/** The license lists refresh after a change. */
export const refreshLicenses = () => queryClient.invalidateQueries({ queryKey: licenseKeys.list });
export const refreshOfflineLicenses = () => queryClient.invalidateQueries({ queryKey: licenseKeys.offline });
