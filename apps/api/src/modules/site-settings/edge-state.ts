import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { cacheSettingsOfSites, optionsOfSites } from './repo';

/** Each site's cache rules, compression and options. */
export const siteSettingsEdge: EdgeFeature = {
  name: 'site settings',
  sites: async ({ deps }, sites) => {
    if (!sites.length) return new Map();
    const siteIds = sites.map((s) => s.id);
    const [cache, options] = await Promise.all([cacheSettingsOfSites(deps.db, siteIds), optionsOfSites(deps.db, siteIds)]);
    return new Map(siteIds.map((id) => [id, { ...cache.get(id), options: options.get(id) }]));
  },
};
