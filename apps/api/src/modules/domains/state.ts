import type { Selectable } from 'kysely';
import type { DomainTable, UpstreamTable } from '../../db/schema';
import { portMapOf } from './rows';

/**
 * What a domain's settings add to the node's desired state: load balancing (with the first enabled origin's
 * hash key), keepalive (the largest of its enabled origins; 0 turns it off) and port mapping.
 */
export const domainOptionsOf = (d: Selectable<DomainTable>, origins: Selectable<UpstreamTable>[]) => {
  const own = origins.filter((o) => o.domain_id === d.id);
  return {
    balance: d.balance,
    hashKey: own.find((o) => o.hash)?.hash ?? '',
    keepalive: Math.max(0, ...own.map((o) => o.keepalive)),
    portMap: portMapOf(d),
  };
};
