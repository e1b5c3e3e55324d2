import { siteActionSchemas } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import type { Db } from '../../db';
import { readJson } from '../../db/json-column';
import { readTerms } from '../products/terms';
import { limitationsOfSites } from '../sites/repo';

type Limit = number | null | undefined;
/** The site's own limitation, else its product's; 0 or none: unlimited. */
const effective = (own: Limit, product: Limit) => {
  const v = typeof own === 'number' ? own : product;
  return typeof v === 'number' && v > 0 ? v : undefined;
};

/** Each site's bandwidth and connection limits that are not unlimited; sites with neither are left out. */
export async function limitsOfSites(db: Db, siteIds: number[]) {
  const limits = new Map<number, { bandwidth?: number; connections?: number }>();
  if (!siteIds.length) return limits;
  const rows = await limitationsOfSites(db, siteIds);
  for (const r of rows) {
    const own = readJson('sites.limitations', siteActionSchemas.siteLimitations, r.limitations);
    const product = readTerms(r.limits);
    const bandwidth = effective(own.bandwidth, product.bandwidth);
    const connections = effective(own.connections, product.connections);
    if (bandwidth || connections) limits.set(r.id, { ...(bandwidth ? { bandwidth } : {}), ...(connections ? { connections } : {}) });
  }
  return limits;
}

/** Each site's bandwidth and connection limits, in its data (the edge caps the site's requests by them). */
export const siteLimitsEdge: EdgeFeature = {
  name: 'site limits',
  siteData: async ({ deps }, sites) => new Map([...(await limitsOfSites(deps.db, sites.map((s) => s.id)))].map(([siteId, limits]) => [siteId, { limits }])),
};
