import { Codes, type edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { reachSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { siteSettingsRepo } from './repo';
import { siteSettings } from './service';
import { assertOwnUrls } from './site-urls';

const MAX_RATE_RULES = 100;

const duplicate = () => new ApiError(Codes.Duplicated, { extra: { fields: [{ in: 'body', field: 'url', message: 'Data already exists!' }] } });

/** Each change answers the site's settings. */
export async function addRate(deps: AppDeps, principal: Principal, siteId: number, rule: edge.RateRule) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await assertOwnUrls(deps, site, [rule.url], 'url');
  if ((await repo.rateCount()) >= MAX_RATE_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_RATE_RULES } });
  if (await repo.rateUrlTaken(rule.url)) throw duplicate();
  await repo.addRate(rule);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function updateRate(deps: AppDeps, principal: Principal, siteId: number, body: edge.RateRule & { id: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.assertRates([body.id]);
  await assertOwnUrls(deps, site, [body.url], 'url');
  if (await repo.rateUrlTaken(body.url, body.id)) throw duplicate();
  await repo.updateRate(body.id, body);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function removeRates(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.removeRates(ids);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}
