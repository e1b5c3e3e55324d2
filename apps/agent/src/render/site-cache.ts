import type { edge } from '@edgekeep/contract';
import { lines } from './text';

/** The node's shared cache, relative to the nginx prefix (the sites without a directory of their own use it). */
export const SHARED_CACHE = 'cache';

/** The cache zone a site's answers go to: its own when it names a directory, else the node's shared one. */
export const siteCacheZone = ({ site }: { site: edge.SiteStructure }) => (site.options.cache.directory === null ? 'ek_cache' : `ek_s${site.id}`);

/** The sites nginx serves (their domains rendered or live) that keep their answers in a directory of their own. */
const ownCacheSites = ({ state }: { state: edge.DesiredState }) =>
  state.structure.sites.filter((site) => site.domains.length > 0 && site.options.cache.directory !== null);

/**
 * The cache zones of those sites, at the http level (an nginx-level setting: a site that gets or leaves a directory
 * reloads): each in its directory, as large as the zone's cache may grow. Their domains, rendered or live, cache there.
 */
export const siteCachePaths = ({ state }: { state: edge.DesiredState }) =>
  lines(
    ...ownCacheSites({ state }).map(
      (site) =>
        `proxy_cache_path ${site.options.cache.directory} levels=1:2 keys_zone=${siteCacheZone({ site })}:8m max_size=${state.structure.zone.nginx.cacheSize}m inactive=7d use_temp_path=off;`,
    ),
  );

/** The sites' own cache directories (absolute), of the sites nginx serves. */
export const siteCacheDirectories = ({ state }: { state: edge.DesiredState }) => ownCacheSites({ state }).map((site) => site.options.cache.directory!);

/** The names of those sites' cache zones: the Lua runtime sends a live domain to its site's only where nginx declares it. */
export const siteCacheZones = ({ state }: { state: edge.DesiredState }) => ownCacheSites({ state }).map((site) => siteCacheZone({ site }));

/** Every cache directory of the node: the shared one first. */
export const cacheDirectories = ({ state }: { state: edge.DesiredState }) => [SHARED_CACHE, ...siteCacheDirectories({ state })];
