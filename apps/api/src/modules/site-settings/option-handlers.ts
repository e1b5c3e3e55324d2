import type { edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { sitesRepo } from '../sites/repo';
import { assertCacheDirectory } from './cache-directory';
import { hasDnsRecords } from './dns-records';
import { changeOptions, loadOptions } from './options';
import { siteSettings } from './service';

export async function setHsts(deps: AppDeps, principal: Principal, siteId: number, hsts: edge.Hsts) {
  await changeOptions(deps, principal, siteId, { hsts });
  const settings = await siteSettings(deps, siteId);
  return { ...settings, warning: hsts.enabled && !settings.httpsEnabled ? ('httpsDisabled' as const) : null };
}

export async function setBodySize(deps: AppDeps, principal: Principal, siteId: number, clientMaxBodySize: number | null) {
  await changeOptions(deps, principal, siteId, { clientMaxBodySize });
  return siteSettings(deps, siteId);
}

export async function setCacheSettings(deps: AppDeps, principal: Principal, siteId: number, cache: edge.SiteOptions['cache']) {
  const site = await sitesRepo(deps, principal).get(siteId);
  await assertCacheDirectory(deps, { siteId, zoneId: site.zoneID, directory: cache.directory });
  await changeOptions(deps, principal, siteId, { cache });
  return siteSettings(deps, siteId);
}

export async function settingExists(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const settings = await siteSettings(deps, siteId);
  const options = await loadOptions(deps.db, siteId);
  const pages = await deps.db.selectFrom('site_error_pages').select('id').where('site_id', '=', siteId).executeTakeFirst();
  return {
    cacheRules: settings.cacheRules.length > 0,
    rates: settings.rates.length > 0,
    errorPages: pages !== undefined,
    dnsRecords: await hasDnsRecords(deps, siteId),
    hsts: options.hsts.enabled,
    gzip: settings.gzip,
  };
}
