import { useQuery } from '@tanstack/react-query';
import { clientDomainRoutes as r } from '@edgekeep/contract/routes/client-domains';
import type { clientDomainItem, clientDomainsQuery } from '@edgekeep/contract/schemas/client-domains';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type ClientDomain = z.output<typeof clientDomainItem>;

export const clientDomainKeys = {
  all: ['clientDomains'] as const,
  tags: ['clientDomainTags'] as const,
};

/** The client's read-only view of its users' domains. */
export const fetchClientDomains = (query: ListQuery) => callRoute(r.domains, { query: query as z.input<typeof clientDomainsQuery> });
export const useClientDomainTags = () => useQuery({ queryKey: clientDomainKeys.tags, queryFn: async () => (await callRoute(r.tags)).data });
