import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { genevaOf, monitorOf } from '../resolutions/health';

/** The node's own monitor thresholds and Geneva setting. */
export const nodeSettingsEdge: EdgeFeature = {
  name: 'node settings',
  zone: async ({ zone }) => ({ node: { monitor: monitorOf(zone), geneva: genevaOf(zone) } }),
};
