import { Codes, edge, type ErrorCode } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { ReachedSite } from '../sites/repo';
import { siteSettingsRepo } from './repo';

const directoryError = (code: ErrorCode, message: string) => new ApiError(code, { extra: { fields: [{ in: 'body', field: 'directory', message }] } });
const within = (dir: string, root: string) => `${dir}/`.startsWith(`${root}/`);

/**
 * A site's own cache directory lies under the web server's cache folder, and no other site of the zone (whose
 * nodes serve them side by side) keeps its cache there, above or below it.
 */
export async function assertCacheDirectory(deps: AppDeps, site: ReachedSite, directory: string | null) {
  if (directory === null) return;
  if (directory === edge.SITE_CACHE_ROOT || !within(directory, edge.SITE_CACHE_ROOT)) {
    throw directoryError(Codes.Parameter, `The directory must be under ${edge.SITE_CACHE_ROOT}/`);
  }
  for (const { cache } of await siteSettingsRepo(deps.db, site).zoneNeighbourOptions()) {
    if (cache.directory !== null && (within(directory, cache.directory) || within(cache.directory, directory))) {
      throw directoryError(Codes.Duplicated, 'Another site of the zone keeps its cache in or around this directory');
    }
  }
}
