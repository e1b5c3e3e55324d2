import type { Selectable } from 'kysely';
import { groupBy, type EdgeFeature } from '../../agent-gateway/edge-feature';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import { portMapOf } from './rows';

/**
 * What a domain's settings add to the node's desired state: load balancing (with the first enabled origin's
 * hash key), keepalive (the largest of its enabled origins; 0 turns it off) and port mapping.
 */
const domainOptionsOf = (d: Selectable<DomainTable>, own: Selectable<UpstreamTable>[]) => {
  return {
    balance: d.balance,
    hashKey: own.find((o) => o.hash)?.hash ?? '',
    keepalive: Math.max(0, ...own.map((o) => o.keepalive)),
    portMap: portMapOf(d),
  };
};

/** Each domain's load balancing, keepalive and port mapping. */
export const domainSettingsEdge: EdgeFeature = {
  name: 'domain settings',
  domains: async (_ctx, domains, origins) => {
    const byDomain = groupBy(origins, (o) => o.domain_id);
    return new Map(domains.map((d) => [d.id, domainOptionsOf(d, byDomain.get(d.id) ?? [])]));
  },
};
