import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { covers } from '../certificates/pem';

export const domainNames = async (deps: AppDeps, siteId: number) =>
  (await deps.db.selectFrom('domains').select('name').where('site_id', '=', siteId).execute()).map((d) => d.name);

/** Every URL must be on one of the site's domains (a wildcard domain covers one label). */
export async function assertOwnUrls(deps: AppDeps, siteId: number, urls: string[], field = 'urls') {
  const names = await domainNames(deps, siteId);
  const foreign = urls.filter((u) => !covers(names, new URL(u).hostname));
  if (foreign.length) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message: `not a domain of the site: ${foreign.join(', ')}` }] } });
}
