import type { Generated } from 'kysely';
import type { Flag } from './schema';

export type NodeExtraTables = {
  node_sub_nodes: { id: Generated<number>; node_id: number; zone_id: number; ip: string; memo: string; created_at: string };
  dns_resolutions: {
    id: Generated<number>;
    zone_id: number;
    site_id: number;
    group_id: number;
    line: string;
    cname: string;
    /** JSON array of infraSchemas.resolutionRecord. */
    records: string;
    backup: Flag;
    updated_at: string;
  };
  dns_resolution_zones: { zone_id: number; revision: number; computed_at: string };
};
