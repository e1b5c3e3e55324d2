import { z } from 'zod';
import * as d from '../schemas/domains';
import * as s from '../schemas/domain-settings';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Domains';
const view = 'domains.view';
const edit = 'domains.edit';
const base = 'user/site/{siteId}';
const params = d.siteParams;

/** The batch and setting calls on a site's domains (spec §7, per-site calls: domains and domain settings). */
export const domainSettingRoutes = {
  metaDomains: defineRoute({ id: 'user.site.metaDomains', method: 'GET', path: `${base}/metaDomains`, tier, permission: view, tag,
    summary: "The site's domain names, for pickers", params, query: s.metaDomainsQuery, response: envelope(z.array(s.metaDomain)) }),
  simpleDomains: defineRoute({ id: 'user.site.simpleDomains', method: 'POST', path: `${base}/simpleDomains`, tier, permission: edit, tag,
    summary: 'Add domains and origins written one per line (origin: host or host:port)', params, body: s.simpleDomainsBody, response: envelope(z.array(d.domainItem)) }),
  removeByNames: defineRoute({ id: 'user.site.domainsByNames.remove', method: 'DELETE', path: `${base}/domainsByNames`, tier, permission: edit, tag,
    summary: 'Remove domains by name', params, body: s.namesBody, response: done }),
  checkCname: defineRoute({ id: 'user.site.domains.checkCNAME', method: 'PUT', path: `${base}/domains/checkCNAME`, tier, permission: edit, tag,
    summary: "Look each domain up in DNS and store whether it points at the site's CNAME (all domains when no ids)", params, body: s.optionalIdsBody,
    response: envelope(z.array(s.cnameCheck)) }),
  modifyUpstreamIPs: defineRoute({ id: 'user.site.domains.modifyUpstreamIPs', method: 'PUT', path: `${base}/domains/modifyUpstreamIPs`, tier, permission: edit, tag,
    summary: 'Replace one origin host by another on the chosen domains', params, body: s.modifyUpstreamIPsBody, response: envelope(z.object({ changed: z.number() })) }),
  exportDomains: defineRoute({ id: 'user.site.domains.export', method: 'POST', path: `${base}/domains/export`, tier, permission: view, tag,
    readOnly: true, summary: 'The chosen domains as text, one per line with their origins', params, body: s.exportBody, response: z.string() }),
  copyToSite: defineRoute({ id: 'user.site.domains.copyToSite', method: 'POST', path: `${base}/domains/copyToSite`, tier, permission: edit, tag,
    summary: "Copy domains with their origins to another of the user's sites", params, body: s.copyToSiteBody, response: envelope(z.array(d.domainItem)) }),
  createFrom: defineRoute({ id: 'user.site.domains.createFrom', method: 'POST', path: `${base}/domains/createFrom`, tier, permission: edit, tag,
    summary: "Copy domains with their origins from another of the user's sites into this one", params, body: s.createFromBody, response: envelope(z.array(d.domainItem)) }),
  batchUpstreams: defineRoute({ id: 'user.site.domains.upstreams', method: 'PUT', path: `${base}/domains/upstreams`, tier, permission: edit, tag,
    summary: 'Replace the origins of the chosen domains', params, body: s.batchUpstreamsBody, response: done }),
  tags: defineRoute({ id: 'user.site.domain.setting.tags', method: 'GET', path: `${base}/domain/setting/tags`, tier, permission: view, tag,
    summary: "Every tag used on the site's domains, sorted", params, response: envelope(s.siteTags) }),
  setTags: defineRoute({ id: 'user.site.domain.setting.tags.set', method: 'PUT', path: `${base}/domain/setting/tags`, tier, permission: edit, tag,
    summary: 'Set the tags of the chosen domains (kept sorted alphabetically)', params, body: s.domainTagsBody, response: done }),
  status: defineRoute({ id: 'user.site.domain.setting.status', method: 'PUT', path: `${base}/domain/setting/status`, tier, permission: edit, tag,
    summary: 'Enable (1) or disable (0) domains; an enabled twin elsewhere refuses (401001)', params, body: s.domainStatusBody, response: done }),
  autoSSL: defineRoute({ id: 'user.site.domain.setting.autoSSL', method: 'POST', path: `${base}/domain/setting/autoSSL`, tier, permission: edit, tag,
    summary: "Turn automatic certificates on or off (the license's auto-SSL count: 401004)", params, body: s.autoSSLBody, response: done }),
  balance: defineRoute({ id: 'user.site.domain.setting.balance', method: 'PATCH', path: `${base}/domain/setting/balance`, tier, permission: edit, tag,
    summary: 'Load balancing across origins: round robin, IP hash or least connections', params, body: s.balanceBody, response: done }),
  forceSSL: defineRoute({ id: 'user.site.domain.setting.forceSSL', method: 'PATCH', path: `${base}/domain/setting/forceSSL`, tier, permission: edit, tag,
    summary: 'Redirect HTTP to HTTPS where the domain has a certificate', params, body: s.forceSSLBody, response: done }),
  settings: defineRoute({ id: 'user.site.domain.settings', method: 'GET', path: `${base}/domain/settings`, tier, permission: view, tag,
    summary: "The domains' settings", params, query: s.settingsQuery, response: paged(s.domainSetting) }),
  scheme: defineRoute({ id: 'user.site.domain.scheme', method: 'PUT', path: `${base}/domain/{domainId}/scheme`, tier, permission: edit, tag,
    summary: 'Origin protocol and port mapping (follow needs mapping on; a mapped port the zone does not open: 401003)', params: d.domainParams,
    body: s.schemeBody, response: envelope(s.domainSetting) }),
} as const;
