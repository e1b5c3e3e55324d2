import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { domainRoutes as d } from '@edgekeep/contract/routes/domains';
import { siteSettingRoutes as s } from '@edgekeep/contract/routes/site-settings';
import { siteRoutes as r } from '@edgekeep/contract/routes/sites';
import type { domainSchemas, siteSchemas, siteSettingSchemas } from '@edgekeep/contract';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { callRoute, dataOf } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

/** Shapes of the user's site calls, taken from the contract (types only). */
export type Site = z.output<typeof siteSchemas.siteItem>;
export type Domain = z.output<typeof domainSchemas.domainItem>;
export type Upstream = z.output<typeof domainSchemas.upstreamItem>;
export type UpstreamInput = z.input<typeof domainSchemas.upstreamInput>;
export type CreateDomainsBody = z.input<typeof domainSchemas.createDomainsBody>;
export type UpdateDomainBody = z.input<typeof domainSchemas.updateDomainBody>;
export type Certificate = z.output<typeof siteSettingSchemas.certificateItem>;
export type CreateCertificateBody = z.input<typeof siteSettingSchemas.createCertificateBody>;
export type CacheRule = z.input<typeof siteSettingSchemas.cacheRuleInput>;
export type CacheRuleItem = z.output<typeof siteSettingSchemas.cacheRuleItem>;
export type ErrorPage = z.input<typeof siteSettingSchemas.errorPageInput>;
export type ErrorPageItem = z.output<typeof siteSettingSchemas.errorPageItem>;
export type FullSettings = z.output<typeof siteSettingSchemas.fullSettings>;
export type Compression = z.input<typeof siteSettingSchemas.compressionBody>;
export type Hsts = z.input<typeof siteSettingSchemas.hstsBody>;
export type Rate = z.input<typeof siteSettingSchemas.rateInput>;
export type RateItem = z.output<typeof siteSettingSchemas.rateItem>;
export type Ports = z.input<typeof siteSettingSchemas.portsBody>;
export type UrlPurge = z.input<typeof siteSettingSchemas.anyUrlPurgeBody>;
export type DnsRecord = z.output<typeof siteSettingSchemas.dnsRecordItem>;
export type DnsRecordInput = z.input<typeof siteSettingSchemas.dnsRecordInput>;
export type CacheTask = z.output<typeof siteSettingSchemas.cacheTaskItem>;

/** react-query keys of the site screens; a change refreshes what starts with them. */
export const siteKeys = {
  sites: ['user-sites'],
  metaSites: ['user-sites', 'meta'],
  productOptions: ['user-sites', 'products'],
  site: (siteId: number) => ['user-site', siteId],
  tags: ['user-site-tags'],
  siteUsers: (siteId: number) => ['user-site-users', siteId],
  /** The domains of every site (a copy to another site changes its list). */
  everySiteDomains: ['user-site-domains'],
  domains: (siteId: number) => ['user-site-domains', siteId],
  allDomains: (siteId: number) => ['user-site-domains', siteId, 'all'],
  domainUpstreams: (siteId: number, domainId: number) => ['user-site-domains', siteId, 'upstreams', domainId],
  certificates: (siteId: number) => ['user-site-certificates', siteId],
  allCertificates: (siteId: number) => ['user-site-certificates', siteId, 'all'],
  /** Cache rules, compression, HSTS, body size and rate rules: one answer (`settings`) for the tabs that show them. */
  settings: (siteId: number) => ['user-site-settings', siteId],
  rates: (siteId: number) => ['user-site-settings', siteId, 'rates'],
  errorPages: (siteId: number) => ['user-site-error-pages', siteId],
  zonePorts: (siteId: number) => ['user-site-zone-ports', siteId],
  dns: (siteId: number) => ['user-site-dns', siteId],
  cacheTasks: (siteId: number) => ['user-site-cache-tasks', siteId],
};

/** The user's sites, their domains and origins (spec §7 "Per-site calls under user/site/{siteId}/"). */
export const siteCalls = {
  sites: (query: ListQuery) => callRoute(r.userSites, { query: query as z.input<typeof siteSchemas.sitesQuery> }),
  site: (siteId: number) => dataOf(callRoute(r.userSite, { params: { siteId } })),
  metaSites: () => dataOf(callRoute(r.userMetaSites)),
  tags: () => dataOf(callRoute(r.userSiteTags)),
  setTags: (siteId: number, tags: string[]) => dataOf(callRoute(r.setUserSiteTags, { params: { siteId }, body: { tags } })),
  siteUsers: (siteId: number) => dataOf(callRoute(r.siteUsers, { params: { siteId } })),
  share: ({ on, ...body }: z.input<typeof siteSchemas.shareSitesBody> & { on: boolean }) => callRoute(on ? r.shareSites : r.unshareSites, { body }),
  products: (query: ListQuery) => callRoute(r.userProducts, { query: query as z.input<typeof siteSchemas.userProductsQuery> }),

  domains: (siteId: number, query: ListQuery) => callRoute(d.domains, { params: { siteId }, query: query as z.input<typeof domainSchemas.domainsQuery> }),
  createDomains: (siteId: number, body: CreateDomainsBody) => dataOf(callRoute(d.createDomains, { params: { siteId }, body })),
  updateDomain: (siteId: number, body: UpdateDomainBody) => dataOf(callRoute(d.updateDomain, { params: { siteId }, body })),
  removeDomains: (siteId: number, ids: number[]) => callRoute(d.removeDomains, { params: { siteId }, body: { ids } }),
  upstreams: (siteId: number, domainId: number, query: ListQuery) =>
    callRoute(d.upstreams, { params: { siteId, domainId }, query: query as z.input<typeof domainSchemas.upstreamsQuery> }),
  addUpstreams: (siteId: number, domainId: number, upstreams: UpstreamInput[]) => dataOf(callRoute(d.addUpstreams, { params: { siteId, domainId }, body: { upstreams } })),
  updateUpstream: (siteId: number, domainId: number, body: z.input<typeof domainSchemas.updateUpstreamBody>) =>
    dataOf(callRoute(d.updateUpstream, { params: { siteId, domainId }, body })),
  removeUpstreams: (siteId: number, domainId: number, ids: number[]) => callRoute(d.removeUpstreams, { params: { siteId, domainId }, body: { ids } }),

  certificates: (siteId: number, query: ListQuery) =>
    callRoute(s.certificates, { params: { siteId }, query: query as z.input<typeof siteSettingSchemas.certificatesQuery> }),
  createCertificate: (siteId: number, body: CreateCertificateBody) => dataOf(callRoute(s.createCertificate, { params: { siteId }, body })),
  bindCertificate: (siteId: number, id: number, domainIDs: number[]) => dataOf(callRoute(s.bindCertificate, { params: { siteId }, body: { id, domainIDs } })),
  removeCertificates: (siteId: number, ids: number[]) => callRoute(s.removeCertificates, { params: { siteId }, body: { ids } }),

  errorPages: (siteId: number, query: ListQuery) => callRoute(s.errorPages, { params: { siteId }, query: query as z.input<typeof siteSettingSchemas.errorPagesQuery> }),
  saveErrorPage: (siteId: number, page: ErrorPage, id?: number) =>
    dataOf(id ? callRoute(s.updateErrorPage, { params: { siteId }, body: { ...page, id } }) : callRoute(s.createErrorPage, { params: { siteId }, body: page })),
  removeErrorPages: (siteId: number, ids: number[]) => callRoute(s.removeErrorPages, { params: { siteId }, body: { ids } }),
};

/** Cache rules, compression, rates, HSTS, body size, ports, DNS records, purges and warm-cache tasks of a site. */
export const siteOptionCalls = {
  settings: (siteId: number) => dataOf(callRoute(s.settings, { params: { siteId } })),
  saveCacheRule: (siteId: number, rule: CacheRule, id?: number) =>
    dataOf(id ? callRoute(s.updateCacheRule, { params: { siteId }, body: { ...rule, id } }) : callRoute(s.createCacheRule, { params: { siteId }, body: rule })),
  removeCacheRules: (siteId: number, ids: number[]) => dataOf(callRoute(s.removeCacheRules, { params: { siteId }, body: { ids } })),
  cacheSettings: (siteId: number, body: z.input<typeof siteSettingSchemas.cacheSettingsBody>) => dataOf(callRoute(s.cacheSettings, { params: { siteId }, body })),
  compression: (siteId: number, body: Compression) => dataOf(callRoute(s.gzip, { params: { siteId }, body })),
  saveRate: (siteId: number, rate: Rate, id?: number) =>
    dataOf(id ? callRoute(s.updateRate, { params: { siteId }, body: { ...rate, id } }) : callRoute(s.createRate, { params: { siteId }, body: rate })),
  removeRates: (siteId: number, ids: number[]) => dataOf(callRoute(s.removeRates, { params: { siteId }, body: { ids } })),
  hsts: (siteId: number, body: Hsts) => dataOf(callRoute(s.hsts, { params: { siteId }, body })),
  bodySize: (siteId: number, clientMaxBodySize: number | null) => dataOf(callRoute(s.bodySize, { params: { siteId }, body: { clientMaxBodySize } })),

  purgeAll: (siteId: number) => dataOf(callRoute(s.purgeAll, { params: { siteId } })),
  purgeUrls: (siteId: number, body: UrlPurge) => dataOf(callRoute(s.purgeUrls, { params: { siteId }, body })),
  purgeCacheRules: (siteId: number, ids: number[]) => dataOf(callRoute(s.purgeCacheRules, { params: { siteId }, body: { ids } })),
  cacheTasks: (siteId: number, query: ListQuery) => callRoute(s.cacheTasks, { params: { siteId }, query: query as z.input<typeof siteSettingSchemas.cacheTasksQuery> }),
  createCacheTask: (siteId: number, urls: string) => dataOf(callRoute(s.createCacheTask, { params: { siteId }, body: { type: 'warm', urls } })),

  zonePorts: (siteId: number) => dataOf(callRoute(s.zonePorts, { params: { siteId } })),
  /** Listens on the ports (`on`) or stops listening on them. */
  setPorts: (siteId: number, { on, ...body }: Ports & { on: boolean }) => dataOf(callRoute(on ? s.addPorts : s.removePorts, { params: { siteId }, body })),

  dnsRecords: (siteId: number, query: ListQuery) => callRoute(s.dnsRecords, { params: { siteId }, query: query as z.input<typeof siteSettingSchemas.dnsQuery> }),
  saveDnsRecord: (siteId: number, record: DnsRecordInput, id?: number) =>
    dataOf(id ? callRoute(s.updateDnsRecord, { params: { siteId }, body: { ...record, id } }) : callRoute(s.createDnsRecord, { params: { siteId }, body: record })),
  removeDnsRecords: (siteId: number, ids: number[]) => callRoute(s.removeDnsRecords, { params: { siteId }, body: { ids } }),
};

/** The site's settings (cache rules, compression, rates, HSTS, body size, cache key and directory). */
export const useSiteSettings = (siteId: number) => useQuery({ queryKey: siteKeys.settings(siteId), queryFn: () => siteOptionCalls.settings(siteId) });

/** Every domain of the site (one page of the largest size), for the pickers that assign something to domains. */
export const useAllDomains = (siteId: number) =>
  useQuery({ queryKey: siteKeys.allDomains(siteId), queryFn: () => siteCalls.domains(siteId, { page: 1, pageSize: MAX_PAGE_SIZE }) });
