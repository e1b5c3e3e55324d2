import type { edge } from '@edgekeep/contract';

/** The node's shared cache, relative to the nginx prefix (the sites without a directory of their own use it). */
export const SHARED_CACHE = 'cache';

/** The cache zone a site's answers go to: its own when it names a directory, else the node's shared one. */
export const siteCacheZone = ({ site }: { site: edge.SiteStructure }) => (site.options.cache.directory === null ? 'ek_cache' : `ek_s${site.id}`);

/** A site with a directory of its own gets a cache zone there, as large as the zone's cache may grow. */
export const siteCachePath = ({ site, zone }: { site: edge.SiteStructure; zone: edge.ZoneStructure }) => {
  const dir = site.options.cache.directory;
  if (dir === null) return '';
  return `proxy_cache_path ${dir} levels=1:2 keys_zone=${siteCacheZone({ site })}:8m max_size=${zone.nginx.cacheSize}m inactive=7d use_temp_path=off;`;
};

/** The sites' own cache directories (absolute), of the sites nginx serves. */
export const siteCacheDirectories = ({ state }: { state: edge.DesiredState }) =>
  state.structure.sites.flatMap((site) => (site.domains.length && site.options.cache.directory !== null ? [site.options.cache.directory] : []));

/** Every cache directory of the node: the shared one first. */
export const cacheDirectories = ({ state }: { state: edge.DesiredState }) => [SHARED_CACHE, ...siteCacheDirectories({ state })];
