import type { siteSchemas, siteSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { ListQuery } from '../components/list-params';
import { call, callList } from './client';

/** Shapes of the site option calls, taken from the contract (types only). */
export type FullSettings = z.infer<typeof siteSettingSchemas.fullSettings>;
export type HstsResult = z.infer<typeof siteSettingSchemas.hstsResult>;
export type Hsts = z.input<typeof siteSettingSchemas.hstsBody>;
export type RateItem = z.infer<typeof siteSettingSchemas.rateItem>;
export type ZonePorts = z.infer<typeof siteSettingSchemas.zonePorts>;
export type DnsRecord = z.infer<typeof siteSettingSchemas.dnsRecordItem>;
export type DnsRecordInput = z.input<typeof siteSettingSchemas.dnsRecordInput>;
export type CacheTask = z.infer<typeof siteSettingSchemas.cacheTaskItem>;
export type PurgeResult = z.infer<typeof siteSettingSchemas.purgeResult>;
export type SiteUser = z.infer<typeof siteSchemas.siteUserItem>;
export type UserProduct = z.infer<typeof siteSchemas.userProductItem>;

const tier = 'user' as const;
const site = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** Rate rules, compression, HSTS, body size, ports, DNS records, purges and warm-cache tasks of a site. */
export const siteOptionsApi = {
  settings: (siteId: number) => call<FullSettings>(site(siteId, 'settings'), { tier }),
  createRate: (siteId: number, body: { url: string; rate: number }) => send<FullSettings>('POST', site(siteId, 'rate'), body),
  updateRate: (siteId: number, body: RateItem) => send<FullSettings>('PUT', site(siteId, 'rate'), body),
  removeRates: (siteId: number, ids: number[]) => send<FullSettings>('DELETE', site(siteId, 'rates'), { ids }),
  compression: (siteId: number, body: { enabled: boolean; webp?: boolean }) => send<FullSettings>('PUT', site(siteId, 'setting/gzip'), body),
  hsts: (siteId: number, body: Hsts) => send<HstsResult>('PUT', site(siteId, 'setting/hsts'), body),
  bodySize: (siteId: number, clientMaxBodySize: number | null) => send<FullSettings>('PUT', site(siteId, 'setting/clientMaxBodySize'), { clientMaxBodySize }),
  cacheSettings: (siteId: number, body: { ignoreQuery: boolean; directory: string | null }) => send<FullSettings>('PUT', site(siteId, 'cacheRule/settings'), body),
  purgeAll: (siteId: number) => send<PurgeResult>('DELETE', site(siteId, 'setting/currentCache'), undefined),
  purgeUrls: (siteId: number, body: { type: 1 | 2; urls: string }) => send<PurgeResult>('DELETE', site(siteId, 'setting/urlCache'), body),
  purgeCacheRules: (siteId: number, ids: number[]) => send<PurgeResult>('DELETE', site(siteId, 'cacheRule/caches'), { ids }),
  zonePorts: (siteId: number) => call<ZonePorts>(site(siteId, 'zonePorts'), { tier }),
  setPorts: (siteId: number, body: { type: 'http' | 'https'; ports: number[]; on: boolean }) =>
    send<ZonePorts>(body.on ? 'POST' : 'DELETE', site(siteId, 'setting/ports'), { type: body.type, ports: body.ports }),
  dnsRecords: (siteId: number, query: ListQuery) => callList<DnsRecord>(site(siteId, 'setting/dns'), { tier, query }),
  createDnsRecord: (siteId: number, body: DnsRecordInput) => send<DnsRecord>('POST', site(siteId, 'setting/dns'), body),
  updateDnsRecord: (siteId: number, body: DnsRecordInput & { id: number }) => send<DnsRecord>('PUT', site(siteId, 'setting/dns'), body),
  removeDnsRecords: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, 'setting/dns'), { ids }),
  cacheTasks: (siteId: number, query: ListQuery) => callList<CacheTask>(site(siteId, 'setting/cacheTasks'), { tier, query }),
  createCacheTask: (siteId: number, urls: string) => send<CacheTask>('POST', site(siteId, 'setting/cacheTask'), { type: 'warm', urls }),
  siteUsers: (siteId: number) => call<SiteUser[]>(`user/site/users/${siteId}`, { tier }),
  share: (body: { siteIDs: number[]; userIDs: number[]; on: boolean }) =>
    send<unknown>(body.on ? 'PATCH' : 'DELETE', 'user/site/users', { siteIDs: body.siteIDs, userIDs: body.userIDs }),
  products: (query: ListQuery & { productIDs?: number[] }) => callList<UserProduct>('user/products', { tier, query }),
};
