import type { domainSchemas, siteSchemas, siteSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { ListQuery } from '../components/list-params';
import { call, callList } from './client';

/** Shapes of the user's site calls, taken from the contract (types only). */
export type Site = z.infer<typeof siteSchemas.siteItem>;
export type Domain = z.infer<typeof domainSchemas.domainItem>;
export type Upstream = z.infer<typeof domainSchemas.upstreamItem>;
export type UpstreamInput = z.input<typeof domainSchemas.upstreamInput>;
export type CreateDomainsBody = z.input<typeof domainSchemas.createDomainsBody>;
export type UpdateDomainBody = z.input<typeof domainSchemas.updateDomainBody>;
export type Certificate = z.infer<typeof siteSettingSchemas.certificateItem>;
export type CreateCertificateBody = z.input<typeof siteSettingSchemas.createCertificateBody>;
export type SiteSettings = z.infer<typeof siteSettingSchemas.siteSettings>;
export type CacheRule = z.input<typeof siteSettingSchemas.cacheRuleInput>;
export type CacheRuleItem = z.infer<typeof siteSettingSchemas.cacheRuleItem>;
export type ErrorPage = z.input<typeof siteSettingSchemas.errorPageInput>;
export type ErrorPageItem = z.infer<typeof siteSettingSchemas.errorPageItem>;

const tier = 'user' as const;
const site = (siteId: number, rest = '') => `user/site/${siteId}${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** The user's site calls of spec §7 ("Per-site calls under user/site/{siteId}/"). */
export const sitesApi = {
  sites: (query: ListQuery) => callList<Site>('user/sites', { tier, query }),
  site: (siteId: number) => call<Site>(site(siteId), { tier }),
  metaSites: () => call<{ id: number; name: string }[]>('user/metaSites', { tier }),
  tags: () => call<string[]>('user/site/tags', { tier }),
  setTags: (siteId: number, tags: string[]) => send<Site>('PUT', site(siteId, '/tags'), { tags }),

  domains: (siteId: number, query: ListQuery) => callList<Domain>(site(siteId, '/domains'), { tier, query }),
  createDomains: (siteId: number, body: CreateDomainsBody) => send<Domain[]>('POST', site(siteId, '/domains'), body),
  updateDomain: (siteId: number, body: UpdateDomainBody) => send<Domain>('PUT', site(siteId, '/domain'), body),
  removeDomains: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, '/domains'), { ids }),
  upstreams: (siteId: number, domainId: number) => callList<Upstream>(site(siteId, `/domain/${domainId}/upstreams`), { tier }),
  addUpstreams: (siteId: number, domainId: number, upstreams: UpstreamInput[]) =>
    send<Upstream[]>('POST', site(siteId, `/domain/${domainId}/upstreams`), { upstreams }),
  updateUpstream: (siteId: number, domainId: number, body: Partial<UpstreamInput> & { id: number }) =>
    send<Upstream>('PUT', site(siteId, `/domain/${domainId}/upstream`), body),
  removeUpstreams: (siteId: number, domainId: number, ids: number[]) =>
    send<unknown>('DELETE', site(siteId, `/domain/${domainId}/upstreams`), { ids }),

  certificates: (siteId: number, query: ListQuery) => callList<Certificate>(site(siteId, '/certificates'), { tier, query }),
  createCertificate: (siteId: number, body: CreateCertificateBody) => send<Certificate>('POST', site(siteId, '/certificate'), body),
  bindCertificate: (siteId: number, id: number, domainIDs: number[]) =>
    send<Certificate>('PATCH', site(siteId, '/certificate/domains'), { id, domainIDs }),
  removeCertificates: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, '/certificates'), { ids }),

  settings: (siteId: number) => call<SiteSettings>(site(siteId, '/settings'), { tier }),
  createCacheRule: (siteId: number, rule: CacheRule) => send<SiteSettings>('POST', site(siteId, '/cacheRule'), rule),
  updateCacheRule: (siteId: number, rule: CacheRule & { id: number }) => send<SiteSettings>('PUT', site(siteId, '/cacheRule'), rule),
  removeCacheRules: (siteId: number, ids: number[]) => send<SiteSettings>('DELETE', site(siteId, '/cacheRules'), { ids }),
  gzip: (siteId: number, enabled: boolean) => send<SiteSettings>('PUT', site(siteId, '/setting/gzip'), { enabled }),

  errorPages: (siteId: number, query: ListQuery) => callList<ErrorPageItem>(site(siteId, '/errorPages'), { tier, query }),
  createErrorPage: (siteId: number, page: ErrorPage) => send<ErrorPageItem>('POST', site(siteId, '/errorPage'), page),
  updateErrorPage: (siteId: number, page: ErrorPage & { id: number }) => send<ErrorPageItem>('PUT', site(siteId, '/errorPage'), page),
  removeErrorPages: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, '/errorPage'), { ids }),
};
