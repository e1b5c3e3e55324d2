import type { domainSchemas, domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList, callText } from '../../api/client';
import type { Upstream, UpstreamInput } from '../../api/sites';
import type { ListQuery } from '../../components/list-params';

export type PortMap = z.infer<typeof domainSchemas.portMap>;
export type Balance = (typeof domainSchemas.BALANCES)[number];
export type CnameCheck = z.infer<typeof domainSettingSchemas.cnameCheck>;
export type DomainSetting = z.infer<typeof domainSettingSchemas.domainSetting>;
export type Scheme = (typeof domainSchemas.PROTOCOLS)[number];

const tier = 'user' as const;
const site = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** The batch and setting calls on a site's domains (spec §7). */
export const domainsApi = {
  upstreams: (siteId: number, domainId: number, query: ListQuery) => callList<Upstream>(site(siteId, `domain/${domainId}/upstreams`), { tier, query }),
  tags: (siteId: number) => call<string[]>(site(siteId, 'domain/setting/tags'), { tier }),
  setTags: (siteId: number, ids: number[], tags: string[]) => send<unknown>('PUT', site(siteId, 'domain/setting/tags'), { ids, tags }),
  setStatus: (siteId: number, ids: number[], status: 0 | 1) => send<unknown>('PUT', site(siteId, 'domain/setting/status'), { ids, status }),
  setAutoSSL: (siteId: number, ids: number[], autoSSL: boolean) => send<unknown>('POST', site(siteId, 'domain/setting/autoSSL'), { ids, autoSSL }),
  setForceSSL: (siteId: number, ids: number[], forceSSL: boolean) => send<unknown>('PATCH', site(siteId, 'domain/setting/forceSSL'), { ids, forceSSL }),
  setBalance: (siteId: number, ids: number[], balance: Balance) => send<unknown>('PATCH', site(siteId, 'domain/setting/balance'), { ids, balance }),
  setScheme: (siteId: number, domainId: number, body: { scheme: Scheme; portMap: PortMap }) =>
    send<DomainSetting>('PUT', site(siteId, `domain/${domainId}/scheme`), body),
  checkCname: (siteId: number, ids?: number[]) => send<CnameCheck[]>('PUT', site(siteId, 'domains/checkCNAME'), { ids }),
  exportText: (siteId: number, ids: number[]) => callText(site(siteId, 'domains/export'), { method: 'POST', tier, body: { ids } }),
  metaDomains: (siteId: number) => call<{ id: number; name: string }[]>(site(siteId, 'metaDomains'), { tier }),
  settings: (siteId: number, query: ListQuery & { domainName?: string }) => callList<DomainSetting>(site(siteId, 'domain/settings'), { tier, query }),
  replaceOriginHost: (siteId: number, body: { ids: number[]; oldHost: string; newHost: string }) =>
    send<{ changed: number }>('PUT', site(siteId, 'domains/modifyUpstreamIPs'), body),
  setOrigins: (siteId: number, ids: number[], upstreams: UpstreamInput[]) => send<unknown>('PUT', site(siteId, 'domains/upstreams'), { ids, upstreams }),
  copyToSite: (siteId: number, ids: number[], targetSiteID: number, enabled: boolean) =>
    send<unknown>('POST', site(siteId, 'domains/copyToSite'), { ids, targetSiteID, enabled }),
};
