import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { edgeDirectivesOfZone } from './repo';

/** The zone owner's nginx directives, in the zone's structure. */
export const nginxSettingsEdge: EdgeFeature = {
  name: 'nginx settings',
  zone: async ({ deps, zone }) => ({ structure: { directives: await edgeDirectivesOfZone(deps.db, zone.id) } }),
};
