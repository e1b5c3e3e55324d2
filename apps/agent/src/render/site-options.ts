import type { edge } from '@edgekeep/contract';
import { block, lines } from './text';

const IMAGE_EXTENSIONS = 'jpe?g|png|gif|bmp';
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const rateVar = (site: edge.SiteStructure) => `$ek_rate_s${site.id}`;
const webpVar = (site: edge.SiteStructure) => `$ek_webp_s${site.id}`;
const varyVar = (site: edge.SiteStructure) => `$ek_vary_s${site.id}`;

/** Longest prefix first: nginx takes the first regex of a map that matches. */
const rateMap = (site: edge.SiteStructure) => {
  const rules = [...site.options.rateRules].sort((a, b) => b.url.length - a.url.length);
  if (!rules.length) return '';
  return block({
    head: `map $host$uri ${rateVar(site)}`,
    body: lines(
      'default 0;',
      ...rules.map((r) => `"~^${regexEscape(r.url.replace(/^https?:\/\//, ''))}" ${r.rate}k;`),
    ),
  });
};

const webpMaps = (site: edge.SiteStructure) =>
  site.options.webp &&
  lines(
    block({ head: `map "$http_accept|$uri" ${webpVar(site)}`, body: lines('default "";', `"~*image/webp[^|]*\\|.*\\.(${IMAGE_EXTENSIONS})$" "#webp";`) }),
    block({ head: `map $uri ${varyVar(site)}`, body: lines('default "";', `"~*\\.(${IMAGE_EXTENSIONS})$" "Accept";`) }),
  );

/** What a site adds at the http level: the maps its servers use. */
export const siteMaps = ({ site }: { site: edge.SiteStructure }) => lines(rateMap(site), webpMaps(site));

export const hstsValue = (h: edge.Hsts) => [`max-age=${h.maxAge}`, h.includeSubDomains && 'includeSubDomains', h.preload && 'preload'].filter(Boolean).join('; ');

const cacheKey = (site: edge.SiteStructure) => {
  const { webp, cache } = site.options;
  if (!webp && !cache.ignoreQuery) return '';
  return `proxy_cache_key $scheme://$host${cache.ignoreQuery ? '$uri' : '$request_uri'}${webp ? webpVar(site) : ''};`;
};

/**
 * What a site's options add to each of its servers: the HSTS header (HTTPS only; the domain's own HSTS switch
 * takes the site's parameters), the body size check, the rate limits and the cache key.
 */
export const serverOptions = ({ site, domain, https }: { site: edge.SiteStructure; domain: edge.Domain; https: boolean }) => {
  const { hsts, clientMaxBodySize, rateRules, webp } = site.options;
  return lines(
    https && (hsts.enabled || domain.hsts) && `add_header Strict-Transport-Security "${hstsValue(hsts)}" always;`,
    clientMaxBodySize !== null && `client_max_body_size ${clientMaxBodySize}m;`,
    rateRules.length > 0 && `limit_rate ${rateVar(site)};`,
    webp && `add_header Vary ${varyVar(site)};`,
    cacheKey(site),
  );
};

/** The zone's ports a site listens on: its chosen ones, or all of them when it chose none the zone still has. */
export const sitePorts = ({ site, zone }: { site: edge.SiteStructure; zone: edge.ZoneStructure }) => {
  const pick = (all: number[], chosen: number[] | null) => {
    const kept = chosen ? all.filter((p) => chosen.includes(p)) : all;
    return kept.length ? kept : all;
  };
  return { httpPorts: pick(zone.httpPorts, site.options.httpPorts), httpsPorts: pick(zone.httpsPorts, site.options.httpsPorts) };
};
