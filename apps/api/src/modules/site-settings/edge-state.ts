import { edge } from '@edgekeep/contract';
import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { readJson } from '../../db/json-column';
import { optionsOfSites } from './options';

/** Each site's cache rules, compression and options. */
export const siteSettingsEdge: EdgeFeature = {
  name: 'site settings',
  sites: async ({ deps }, sites) => {
    if (!sites.length) return new Map();
    const siteIds = sites.map((s) => s.id);
    const gzip = new Map((await deps.db.selectFrom('sites').select(['id', 'gzip']).where('id', 'in', siteIds).execute()).map((s) => [s.id, s.gzip === 1]));
    const rules = await deps.db.selectFrom('site_cache_rules').select(['site_id', 'rule']).where('site_id', 'in', siteIds).orderBy('id').execute();
    const options = await optionsOfSites(deps.db, siteIds);
    return new Map(
      siteIds.map((id) => [
        id,
        {
          gzip: gzip.get(id),
          cacheRules: rules.filter((r) => r.site_id === id).map((r) => readJson('site_cache_rules.rule', edge.cacheRule, r.rule)),
          options: options.get(id),
        },
      ]),
    );
  },
};
