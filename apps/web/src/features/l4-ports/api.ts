import type { l4PortSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

export type Port = z.infer<typeof l4PortSchemas.portItem>;
export type PortUpstream = z.infer<typeof l4PortSchemas.l4UpstreamItem>;
export type PortUpstreamInput = z.input<typeof l4PortSchemas.l4UpstreamInput>;

const tier = 'user' as const;
const site = (siteId: number, rest: string) => `user/site/${siteId}/${rest}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown) => call<T>(path, { method, tier, body });

/** A site's layer-4 ports and their origins (spec §7, Ports). */
export const portsApi = {
  ports: (siteId: number, query: ListQuery) => callList<Port>(site(siteId, 'ports'), { tier, query }),
  batchCreate: (siteId: number, ports: string, upstreams: PortUpstreamInput[]) => send<Port[]>('POST', site(siteId, 'port/batchCreate'), { ports, upstreams }),
  update: (siteId: number, id: number, port: number) => send<Port>('PUT', site(siteId, 'port'), { id, port }),
  remove: (siteId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, 'ports'), { ids }),
  upstreams: (siteId: number, portId: number, query: ListQuery) => callList<PortUpstream>(site(siteId, `port/${portId}/upstreams`), { tier, query }),
  addUpstreams: (siteId: number, portId: number, upstreams: PortUpstreamInput[]) =>
    send<PortUpstream[]>('POST', site(siteId, `port/${portId}/upstreams`), { upstreams }),
  updateUpstream: (siteId: number, portId: number, body: Partial<PortUpstreamInput> & { id: number }) =>
    send<PortUpstream>('PUT', site(siteId, `port/${portId}/upstream`), body),
  removeUpstreams: (siteId: number, portId: number, ids: number[]) => send<unknown>('DELETE', site(siteId, `port/${portId}/upstreams`), { ids }),
};
