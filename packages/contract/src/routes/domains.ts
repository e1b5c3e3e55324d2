import { z } from 'zod';
import * as s from '../schemas/domains';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Domains';

export const domainRoutes = {
  domains: defineRoute({ id: 'user.site.domains', method: 'GET', path: 'user/site/{siteId}/domains', tier, permission: 'domains.view', tag,
    summary: "A site's domains with their origins", params: s.siteParams, query: s.domainsQuery, response: paged(s.domainItem) }),
  createDomains: defineRoute({ id: 'user.site.domains.create', method: 'POST', path: 'user/site/{siteId}/domains', tier, permission: 'domains.edit', tag,
    summary: 'Add domains, one per line, with their origins; all or none (101009 lists each refusal)', params: s.siteParams, body: s.createDomainsBody,
    response: envelope(z.array(s.domainItem)) }),
  updateDomain: defineRoute({ id: 'user.site.domain.update', method: 'PUT', path: 'user/site/{siteId}/domain', tier, permission: 'domains.edit', tag,
    summary: "Enable or disable a domain, or change its origin protocol, force-SSL or HSTS", params: s.siteParams, body: s.updateDomainBody, response: envelope(s.domainItem) }),
  removeDomains: defineRoute({ id: 'user.site.domains.remove', method: 'DELETE', path: 'user/site/{siteId}/domains', tier, permission: 'domains.edit', tag,
    summary: 'Remove domains', params: s.siteParams, body: s.idsBody, response: done }),
  upstreams: defineRoute({ id: 'user.site.domain.upstreams', method: 'GET', path: 'user/site/{siteId}/domain/{domainId}/upstreams', tier, permission: 'domains.view', tag,
    summary: "A domain's origins", params: s.domainParams, query: s.upstreamsQuery, response: paged(s.upstreamItem) }),
  addUpstreams: defineRoute({ id: 'user.site.domain.upstreams.add', method: 'POST', path: 'user/site/{siteId}/domain/{domainId}/upstreams', tier, permission: 'domains.edit', tag,
    summary: 'Add origins to a domain', params: s.domainParams, body: s.addUpstreamsBody, response: envelope(z.array(s.upstreamItem)) }),
  updateUpstream: defineRoute({ id: 'user.site.domain.upstream.update', method: 'PUT', path: 'user/site/{siteId}/domain/{domainId}/upstream', tier, permission: 'domains.edit', tag,
    summary: 'Change one origin (a site keeps at least one origin enabled: 401008)', params: s.domainParams, body: s.updateUpstreamBody, response: envelope(s.upstreamItem) }),
  removeUpstreams: defineRoute({ id: 'user.site.domain.upstreams.remove', method: 'DELETE', path: 'user/site/{siteId}/domain/{domainId}/upstreams', tier, permission: 'domains.edit', tag,
    summary: 'Remove origins (a domain keeps at least one enabled: 401008)', params: s.domainParams, body: s.idsBody, response: done }),
  ownership: defineRoute({ id: 'user.domains.ownership', method: 'GET', path: 'user/domains/ownership', tier, permission: 'domains.view', tag,
    summary: "The caller's DNS TXT proof for a name's registered domain: the record, its token, whether another tenant holds names there and whether the proof is seen",
    query: s.ownershipQuery, response: envelope(s.ownershipItem) }),
} as const;
