import type { edge } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { defaultPagesOfZone, sitesErrorPages, withDefaultPages } from './repo';

/**
 * The zone owner's default pages: its 903 (no site for the host) served by the Lua runtime, and each site's error
 * pages, its own and the defaults for the statuses it has none for.
 */
export const errorPagesEdge: EdgeFeature = {
  name: 'error pages',
  zone: async ({ deps, zone }) => ({ data: { noDomainPage: (await defaultPagesOfZone(deps.db, zone.id)).find((p) => p.status === 903) ?? null } }),
  sites: async ({ deps, zone }, sites) => {
    if (!sites.length) return new Map();
    const [defaults, pages] = await Promise.all([defaultPagesOfZone(deps.db, zone.id), sitesErrorPages(deps.db, sites.map((s) => s.id))]);
    const own = (siteId: number) => pages.filter((p) => p.site_id === siteId).map(({ status, type, body }) => ({ status, type, body }) as edge.ErrorPage);
    return new Map(sites.map((s) => [s.id, { errorPages: withDefaultPages(own(s.id), defaults) }]));
  },
};
