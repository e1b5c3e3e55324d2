import { Codes, edge } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { domainsRepo } from '../domains/repo';
import { reachSite, sitesRepo, type ReachedSite } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { queueForZone } from './node-queue';
import { changeOptions, sitePortView } from './options';
import { siteSettingsRepo } from './repo';
import { assertOwnUrls, domainNames } from './site-urls';

/** Spec: a site holds up to 100 cache rules (the edge's limit). */
const MAX_CACHE_RULES = 100;

export async function siteSettings(deps: AppDeps, site: ReachedSite) {
  const repo = siteSettingsRepo(deps.db, site);
  const rules = await repo.cacheRules();
  const gzip = await repo.gzip();
  const options = await repo.options();
  const ports = await sitePortView(deps, site);
  const httpsEnabled = await domainsRepo(deps.db, site).servesHttps();
  const on = (list: { port: number; enabled: boolean }[]) => list.filter((p) => p.enabled).map((p) => p.port);
  return {
    cacheRules: rules,
    gzip,
    webp: options.webp,
    cache: { ...options.cache, defaultDirectory: edge.defaultCacheDirectory(site.id) },
    rates: await repo.rateRules(),
    hsts: options.hsts,
    clientMaxBodySize: options.clientMaxBodySize,
    httpPorts: on(ports.httpPorts),
    httpsPorts: on(ports.httpsPorts),
    httpsEnabled,
  };
}

export async function readSettings(deps: AppDeps, principal: Principal, siteId: number) {
  return siteSettings(deps, await sitesRepo(deps, principal).get(siteId));
}

export async function addCacheRule(deps: AppDeps, principal: Principal, siteId: number, rule: edge.CacheRule) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  if ((await repo.cacheRuleCount()) >= MAX_CACHE_RULES) throw new ApiError(Codes.ItemCountExceeded, { extra: { limit: MAX_CACHE_RULES } });
  await repo.addCacheRule(rule);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function updateCacheRule(deps: AppDeps, principal: Principal, siteId: number, body: edge.CacheRule & { id: number }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  const { id, ...rule } = body;
  await repo.updateCacheRule(id, rule);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function removeCacheRules(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await repo.removeCacheRules(ids);
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function setCompression(deps: AppDeps, principal: Principal, siteId: number, body: { enabled: boolean; webp?: boolean }) {
  const sites = sitesRepo(deps, principal);
  const site = await sites.get(siteId);
  await sites.update([site], { gzip: body.enabled ? 1 : 0 });
  if (body.webp !== undefined) await changeOptions(deps, site, { webp: body.webp });
  await sitesChanged(deps, [site]);
  return siteSettings(deps, site);
}

export async function purgeSite(deps: AppDeps, principal: Principal, siteId: number) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const hosts = (await domainNames(deps, site)).filter((h) => !h.startsWith('*.'));
  if (!hosts.length) return { nodes: 0 };
  const { nodes } = await queueForZone(deps, principal, site.zoneID, 'clearCache', { hosts });
  return { nodes: nodes.length };
}

/**
 * Purges by URL, each on one of the site's domains: type 1 the exact URLs (without their query when the site
 * keys its cache on the path only), type 2 everything cached under URL prefixes.
 */
export async function purgeUrls(deps: AppDeps, principal: Principal, siteId: number, body: { type: 1 | 2; urls: string[] }) {
  const { site, repo } = await reachSite(deps, principal, siteId, siteSettingsRepo);
  await assertOwnUrls(deps, site, body.urls);
  if (body.type === 2) return { nodes: (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { prefixes: body.urls })).nodes.length };
  const { cache } = await repo.options();
  const urls = cache.ignoreQuery ? [...new Set(body.urls.map((u) => u.replace(/[?#].*$/, '')))] : body.urls;
  return { nodes: (await queueForZone(deps, principal, site.zoneID, 'clearUrlCache', { urls })).nodes.length };
}
