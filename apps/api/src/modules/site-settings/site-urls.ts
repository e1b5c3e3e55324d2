import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { covers } from '../certificates/pem';
import { domainsRepo } from '../domains/repo';
import type { ReachedSite } from '../sites/repo';

/** The names of the site's domains, in the order they were added. */
export const domainNames = async (deps: AppDeps, site: ReachedSite) => (await domainsRepo(deps.db, site).all()).map((d) => d.name);

/** Every URL must be on one of the site's domains (a wildcard domain covers one label). */
export async function assertOwnUrls(deps: AppDeps, site: ReachedSite, urls: string[], field = 'urls') {
  const names = await domainNames(deps, site);
  const foreign = urls.filter((u) => !covers(names, new URL(u).hostname));
  if (foreign.length) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message: `not a domain of the site: ${foreign.join(', ')}` }] } });
}
