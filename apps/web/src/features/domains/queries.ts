import { domainSettingRoutes as r } from '@edgekeep/contract/routes/domain-settings';
import type { domainSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { callRoute, dataOf } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';
import { siteKeys } from '../sites/queries';

export type SchemeBody = z.input<typeof domainSettingSchemas.schemeBody>;

/** react-query keys of the domain screens, under the site's domains (a change to them refreshes these too). */
export const domainKeys = {
  tags: (siteId: number) => [...siteKeys.domains(siteId), 'tags'],
  settings: (siteId: number, domainId: number) => [...siteKeys.domains(siteId), 'settings', domainId],
};


/** The batch and setting calls on a site's domains (spec §7). */
export const domainCalls = {
  tags: (siteId: number) => dataOf(callRoute(r.tags, { params: { siteId } })),
  setTags: (siteId: number, ids: number[], tags: string[]) => callRoute(r.setTags, { params: { siteId }, body: { ids, tags } }),
  setStatus: (siteId: number, ids: number[], status: 0 | 1) => callRoute(r.status, { params: { siteId }, body: { ids, status } }),
  setAutoSSL: (siteId: number, ids: number[], autoSSL: boolean) => callRoute(r.autoSSL, { params: { siteId }, body: { ids, autoSSL } }),
  setForceSSL: (siteId: number, ids: number[], forceSSL: boolean) => callRoute(r.forceSSL, { params: { siteId }, body: { ids, forceSSL } }),
  setBalance: (siteId: number, ids: number[], balance: z.input<typeof domainSettingSchemas.balanceBody>['balance']) => callRoute(r.balance, { params: { siteId }, body: { ids, balance } }),
  setScheme: (siteId: number, domainId: number, body: SchemeBody) => dataOf(callRoute(r.scheme, { params: { siteId, domainId }, body })),
  /** Looks the domains up in DNS (every domain of the site when no ids are given). */
  checkCname: (siteId: number, ids?: number[]) => dataOf(callRoute(r.checkCname, { params: { siteId }, body: { ids } })),
  exportText: (siteId: number, ids: number[]) => callRoute(r.exportDomains, { params: { siteId }, body: { ids } }),
  metaDomains: (siteId: number) => dataOf(callRoute(r.metaDomains, { params: { siteId } })),
  settings: (siteId: number, query: ListQuery & { domainName?: string }) =>
    callRoute(r.settings, { params: { siteId }, query: query as z.input<typeof domainSettingSchemas.settingsQuery> }),
  replaceOriginHost: (siteId: number, body: z.input<typeof domainSettingSchemas.modifyUpstreamIPsBody>) => dataOf(callRoute(r.modifyUpstreamIPs, { params: { siteId }, body })),
  setOrigins: (siteId: number, body: z.input<typeof domainSettingSchemas.batchUpstreamsBody>) => callRoute(r.batchUpstreams, { params: { siteId }, body }),
  copyToSite: (siteId: number, body: z.input<typeof domainSettingSchemas.copyToSiteBody>) => dataOf(callRoute(r.copyToSite, { params: { siteId }, body })),
};
