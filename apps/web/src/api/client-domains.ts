import type { clientDomainSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from './client';
import type { Query } from './url';

export type ClientDomain = z.infer<typeof clientDomainSchemas.clientDomainItem>;

const tier = 'client' as const;

/** The client's read-only view of its users' domains. */
export const clientDomainsApi = {
  domains: (query: Query) => callList<ClientDomain>('client/domains', { tier, query }),
  tags: () => call<string[]>('client/domains/tags', { tier }),
  metaSites: () => call<{ id: number; name: string }[]>('client/metaSites', { tier }),
};
