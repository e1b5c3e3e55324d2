import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { l4PortsOfSites } from './repo';

/** Each site's layer-4 ports with their enabled origins. */
export const l4PortsEdge: EdgeFeature = {
  name: 'layer-4 ports',
  sites: async ({ deps }, sites) => {
    const ports = await l4PortsOfSites(deps.db, sites.map((s) => s.id));
    return new Map(sites.map((s) => [s.id, { l4Ports: ports.get(s.id) ?? [] }]));
  },
};
