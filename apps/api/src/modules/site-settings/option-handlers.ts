import type { edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { reachSite, sitesRepo } from '../sites/repo';
import { assertCacheDirectory } from './cache-directory';
import { changeOptions } from './options';
import { siteSettingsRepo } from './repo';
import { siteSettings } from './service';

export async function setHsts(deps: AppDeps, principal: Principal, siteId: number, hsts: edge.Hsts) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await changeOptions(deps, site, { hsts });
  const settings = await siteSettings(deps, site);
  return { ...settings, warning: hsts.enabled && !settings.httpsEnabled ? ('httpsDisabled' as const) : null };
}

export async function setBodySize(deps: AppDeps, principal: Principal, siteId: number, clientMaxBodySize: number | null) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await changeOptions(deps, site, { clientMaxBodySize });
  return siteSettings(deps, site);
}

export async function setCacheSettings(deps: AppDeps, principal: Principal, siteId: number, cache: edge.SiteOptions['cache']) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertCacheDirectory(deps, site, cache.directory);
  await changeOptions(deps, site, { cache });
  return siteSettings(deps, site);
}

export async function settingExists(deps: AppDeps, principal: Principal, siteId: number) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const settings = await siteSettings(deps, site);
  const options = await repo.options();
  return {
    cacheRules: settings.cacheRules.length > 0,
    rates: settings.rates.length > 0,
    errorPages: await repo.hasErrorPages(),
    dnsRecords: await repo.hasDnsRecords(),
    hsts: options.hsts.enabled,
    gzip: settings.gzip,
  };
}
