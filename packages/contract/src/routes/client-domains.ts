import { z } from 'zod';
import * as s from '../schemas/client-domains';
import { envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const tag = 'Domains';

/** The client's read-only view of every domain of its users' sites. */
export const clientDomainRoutes = {
  domains: defineRoute({ id: 'client.domains', method: 'GET', path: 'client/domains', tier, permission: 'sites.view', tag,
    summary: "Domains of the client's users' sites (keywords, tags, siteID, userID, status, forceSSL)", query: s.clientDomainsQuery, response: paged(s.clientDomainItem) }),
  meta: defineRoute({ id: 'client.domains.meta', method: 'GET', path: 'client/domains/meta', tier, permission: 'sites.view', tag,
    summary: 'Every domain of those sites, for pickers', response: envelope(z.array(s.clientDomainMeta)) }),
  tags: defineRoute({ id: 'client.domains.tags', method: 'GET', path: 'client/domains/tags', tier, permission: 'sites.view', tag,
    summary: 'Every tag on those domains, sorted', response: envelope(z.array(z.string())) }),
} as const;
