import { l4PortRoutes as r } from '@edgekeep/contract/routes/l4-ports';
import type { l4UpstreamInput, l4UpstreamItem, portItem, portsQuery, upstreamsQuery } from '@edgekeep/contract/schemas/l4-ports';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { OriginCalls } from '../sites/origin-list-drawer';
import type { ListQuery } from '../../components/list-params';

export type Port = z.output<typeof portItem>;
export type PortUpstream = z.output<typeof l4UpstreamItem>;
export type PortUpstreamInput = z.input<typeof l4UpstreamInput>;

export const portKeys = {
  list: (siteId: number) => ['user-site-ports', siteId] as const,
  upstreams: (siteId: number, portId: number) => ['user-site-ports', siteId, 'upstreams', portId] as const,
};

/** A site's layer-4 ports and their origins (spec §7, Ports). */
export const ports = {
  list: (siteId: number, query: ListQuery) => callRoute(r.ports, { params: { siteId }, query: query as z.input<typeof portsQuery> }),
  batchCreate: (siteId: number, body: { ports: string; upstreams: PortUpstreamInput[] }) => callRoute(r.batchCreate, { params: { siteId }, body }),
  move: (siteId: number, body: { id: number; port: number }) => callRoute(r.updatePort, { params: { siteId }, body }),
  remove: (siteId: number, ids: number[]) => callRoute(r.removePorts, { params: { siteId }, body: { ids } }),
};

/** The calls behind the origin list of one port. */
export const portOrigins = (siteId: number, portId: number): OriginCalls<PortUpstream, PortUpstreamInput> => {
  const params = { siteId, portId };
  return {
    list: (query) => callRoute(r.upstreams, { params, query: query as z.input<typeof upstreamsQuery> }),
    add: (u) => callRoute(r.addUpstreams, { params, body: { upstreams: [u] } }),
    update: (u) => callRoute(r.updateUpstream, { params, body: u }),
    remove: (ids) => callRoute(r.removeUpstreams, { params, body: { ids } }),
  };
};
