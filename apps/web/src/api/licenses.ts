import type { accountSchemas, licenseSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { ListQuery } from '../components/list-params';
import { call, callList } from './client';

/** Shapes of the license calls, taken from the contract (types only). */
export type License = z.infer<typeof licenseSchemas.licenseItem>;
export type LicenseFields = z.infer<typeof licenseSchemas.licenseFields>;
export type ClientLicense = z.infer<typeof licenseSchemas.clientLicense>;
export type Order = z.infer<typeof licenseSchemas.orderItem>;
export type OrderInput = z.input<typeof licenseSchemas.orderInput>;
export type RegistrationRequest = z.infer<typeof licenseSchemas.registrationRequest>;
export type LicenseOverview = z.infer<typeof licenseSchemas.licenseOverview>;
export type Account = z.infer<typeof accountSchemas.accountItem>;

const admin = 'admin' as const;
const client = 'client' as const;

/** Spec §7 "Admin license calls", the offline activation, and the client's own license. */
export const licenseApi = {
  list: (query: ListQuery) => callList<License>('license', { tier: admin, query }),
  create: (body: LicenseFields) => call<License>('license', { method: 'POST', tier: admin, body }),
  update: (body: Partial<LicenseFields> & { id: number }) => call<License>('license', { method: 'PUT', tier: admin, body }),
  remove: (ids: number[]) => call<unknown>('license', { method: 'DELETE', tier: admin, body: { ids } }),
  issue: (body: { id: number; clientID: number }) => call<License>('license/issuing', { method: 'POST', tier: admin, body }),
  orders: (clientId: number) => call<Order[]>(`license/${clientId}/order`, { tier: admin }),
  setOrders: (clientId: number, orders: OrderInput[]) =>
    call<Order[]>(`license/${clientId}/order`, { method: 'PUT', tier: admin, body: { orders } }),
  overview: () => call<LicenseOverview>('license/overview', { tier: admin }),
  usageOf: (clientId: number) => call<ClientLicense>(`license/${clientId}/usage`, { tier: admin }),
  offlines: (query: ListQuery) => callList<License>('license/offlines', { tier: admin, query }),
  updateOffline: (body: Partial<LicenseFields> & { id: number }) => call<License>('license/offline', { method: 'PUT', tier: admin, body }),
  removeOffline: (ids: number[]) => call<unknown>('license/offline', { method: 'DELETE', tier: admin, body: { ids } }),
  issueOffline: (body: LicenseFields & { request: string }) =>
    call<License>('license/offline/issuing', { method: 'POST', tier: admin, body }),
  unregister: (ids: number[]) => call<unknown>('license/offline/register', { method: 'DELETE', tier: admin, body: { ids } }),
  clients: (query: ListQuery) => callList<Account>('admin/accounts', { tier: admin, query: { ...query, auth: 'client' } }),
  mine: () => call<ClientLicense>('client/license', { tier: client }),
  registration: () => call<RegistrationRequest>('client/license/registration', { method: 'POST', tier: client }),
  activate: (key: string) => call<ClientLicense>('offline/license', { method: 'PUT', tier: client, body: { key } }),
  updateKey: (key: string) => call<ClientLicense>('offline/license/updateKey', { method: 'PUT', tier: client, query: { key } }),
};
