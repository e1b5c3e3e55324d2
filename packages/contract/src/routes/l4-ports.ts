import { z } from 'zod';
import * as s from '../schemas/l4-ports';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'user' as const;
const tag = 'Layer-4 ports';
const base = 'user/site/{siteId}';

/**
 * A site's layer-4 (TCP) forwarding ports and their origins. A site with layer-7 domains gets no ports (205005),
 * the license must allow layer 4 (101023) and cap the port count (401007).
 */
export const l4PortRoutes = {
  ports: defineRoute({ id: 'user.site.ports', method: 'GET', path: `${base}/ports`, tier, permission: 'ports.view', tag,
    summary: "A site's layer-4 ports with their origins", params: s.siteParams, query: s.portsQuery, response: paged(s.portItem) }),
  updatePort: defineRoute({ id: 'user.site.port.update', method: 'PUT', path: `${base}/port`, tier, permission: 'ports.edit', tag,
    summary: 'Move a layer-4 port to another port number', params: s.siteParams, body: s.updatePortBody, response: envelope(s.portItem) }),
  createPorts: defineRoute({ id: 'user.site.ports.create', method: 'POST', path: `${base}/ports`, tier, permission: 'ports.edit', tag,
    summary: 'Add layer-4 ports, each with its origins; all or none', params: s.siteParams, body: s.createPortsBody, response: envelope(z.array(s.portItem)) }),
  batchCreate: defineRoute({ id: 'user.site.port.batchCreate', method: 'POST', path: `${base}/port/batchCreate`, tier, permission: 'ports.edit', tag,
    summary: 'Add many ports (one per line or from-to) forwarding to the same origins', params: s.siteParams, body: s.batchCreateBody, response: envelope(z.array(s.portItem)) }),
  removePorts: defineRoute({ id: 'user.site.ports.remove', method: 'DELETE', path: `${base}/ports`, tier, permission: 'ports.edit', tag,
    summary: 'Remove layer-4 ports', params: s.siteParams, body: s.idsBody, response: done }),
  upstreams: defineRoute({ id: 'user.site.port.upstreams', method: 'GET', path: `${base}/port/{portId}/upstreams`, tier, permission: 'ports.view', tag,
    summary: "A port's origins", params: s.portParams, query: s.upstreamsQuery, response: paged(s.l4UpstreamItem) }),
  addUpstreams: defineRoute({ id: 'user.site.port.upstreams.add', method: 'POST', path: `${base}/port/{portId}/upstreams`, tier, permission: 'ports.edit', tag,
    summary: 'Add origins to a port', params: s.portParams, body: s.addUpstreamsBody, response: envelope(z.array(s.l4UpstreamItem)) }),
  removeUpstreams: defineRoute({ id: 'user.site.port.upstreams.remove', method: 'DELETE', path: `${base}/port/{portId}/upstreams`, tier, permission: 'ports.edit', tag,
    summary: 'Remove origins (a port keeps at least one enabled: 401008)', params: s.portParams, body: s.idsBody, response: done }),
  updateUpstream: defineRoute({ id: 'user.site.port.upstream.update', method: 'PUT', path: `${base}/port/{portId}/upstream`, tier, permission: 'ports.edit', tag,
    summary: 'Change one origin of a port', params: s.portParams, body: s.updateUpstreamBody, response: envelope(s.l4UpstreamItem) }),
} as const;
