import type { edge } from '@edgekeep/contract';
import { cacheLocations } from './cache-locations';
import { siteCacheZone } from './site-cache';
import { serverOptions, siteMaps, sitePorts } from './site-options';
import { block, lines } from './text';
import { tlsDirectives } from './tls';
import { domainUpstreams } from './upstream';
import { wafDirectives, wafFiles } from './waf';

type Files = Record<string, string>;

/** A gzip site's compression; the zone's fixed server has it too, and the runtime hides Accept-Encoding for live domains without it. */
export const GZIP = lines('gzip on;', 'gzip_proxied any;', 'gzip_types text/plain text/css text/xml application/javascript application/json application/xml image/svg+xml;');
/** nginx only takes error_page codes from 300 to 599; 903 and 929 pages are served by the Lua runtime. */
export const nginxStatus = (status: number) => status >= 300 && status <= 599;

const errorPageFiles = ({ site }: { site: edge.SiteStructure }): Files =>
  Object.fromEntries(
    site.errorPages
      .filter((p) => p.type !== 'redirect' && nginxStatus(p.status))
      .map((p) => [
        `errors/site-${site.id}/${p.status}.html`,
        p.type === 'js' ? `<!doctype html><html><body><script>${p.body}</script></body></html>\n` : p.body,
      ]),
  );

const errorPageDirectives = ({ site, dir }: { site: edge.SiteStructure; dir: string }) => {
  const pages = site.errorPages.filter((p) => nginxStatus(p.status));
  if (!pages.length) return '';
  return lines(
    'proxy_intercept_errors on;',
    ...pages.map((p) =>
      p.type === 'redirect' ? `error_page ${p.status} "${p.body}";` : `error_page ${p.status} /.edgekeep/error/${p.status}.html;`,
    ),
    pages.some((p) => p.type !== 'redirect') &&
      block({ head: 'location ^~ /.edgekeep/error/', body: lines('internal;', `alias ${dir}/errors/site-${site.id}/;`) }),
  );
};

const proxyPassOf = (domain: edge.Domain) => {
  const scheme = domain.originProtocol === 'follow' ? '$scheme' : domain.originProtocol;
  return `${scheme}://ek_d${domain.id}${domain.portMap.enabled ? '_p$server_port' : ''}`;
};

/**
 * What the Lua runtime writes for the access line: what refused a request (on the blocking path only: the cause,
 * the rule and the action taken) and the request's ray id.
 */
export const LUA_LOG_VARIABLES = [
  'set $ek_block "";',
  'set $ek_block_rule "";',
  'set $ek_block_action "";',
  'set $ek_ray "";',
  // the request id of the ray (ray.lua); the access line takes nginx's $request_id for a request that has none
  'set $ek_request_id "";',
  // "1" while the node's disk is full (access.lua): a cache file cannot be written, so nothing new is cached
  'set $ek_no_cache "";',
  'proxy_no_cache $ek_no_cache;',
];

/**
 * What every server of a site has: its names, the variables the Lua runtime and the access line read, the access steps
 * and traffic modules, and the log phase, where a request counted against the site's limitations is let go (the
 * zone's fixed servers run them in live.lua).
 */
const serverNaming = ({ site, domain }: { site: edge.SiteStructure; domain: edge.Domain }) =>
  lines(
    `server_name ${domain.name};`,
    `set $ek_site ${site.id};`,
    `set $ek_domain ${domain.id};`,
    'set $ek_origin_host $host;',
    ...LUA_LOG_VARIABLES,
    'access_by_lua_block { require("edgekeep.access").run() require("edgekeep.site_modules").access() }',
    'log_by_lua_block { require("edgekeep.site_limits").log() }',
  );

const serverBody = ({ site, domain, zone, dir, https }: { site: edge.SiteStructure; domain: edge.Domain; zone: edge.ZoneStructure; dir: string; https: boolean }) =>
  lines(
    serverNaming({ site, domain }),
    'add_header X-Cache $upstream_cache_status always;',
    serverOptions({ site, domain, https }),
    zone.directives.server,
    site.gzip && GZIP,
    domain.originProtocol !== 'http' && lines('proxy_ssl_server_name on;', 'proxy_ssl_name $host;'),
    errorPageDirectives({ site, dir }),
    wafDirectives({ domain, dir }),
    cacheLocations({ domain: domain.name, rules: site.cacheRules, proxyPass: proxyPassOf(domain), zone: siteCacheZone({ site }) }),
  );

const forceSslRedirect = ({ httpsPort, code }: { httpsPort: number; code: number }) =>
  block({ head: 'location /', body: `return ${code} https://$host${httpsPort === 443 ? '' : `:${httpsPort}`}$request_uri;` });

/** ACME HTTP-01 answers come from the Lua runtime's pushed data, past the firewall, and never redirected to HTTPS. */
export const ACME_CHALLENGE_LOCATION = block({
  head: 'location ^~ /.well-known/acme-challenge/',
  body: lines('access_by_lua_block { return }', 'content_by_lua_block { require("edgekeep.acme").serve() }'),
});

const domainServers = (o: { site: edge.SiteStructure; domain: edge.Domain; zone: edge.ZoneStructure; dir: string }) => {
  const { domain, dir } = o;
  const zone = sitePorts(o);
  const hasCert = domain.certificateId !== null;
  const http = block({
    head: 'server',
    body: lines(
      ...zone.httpPorts.map((p) => `listen ${p};`),
      ACME_CHALLENGE_LOCATION,
      hasCert && domain.forceSSL
        ? lines(serverNaming(o), forceSslRedirect({ httpsPort: zone.httpsPorts[0], code: o.zone.forceSSLRedirectCode }))
        : serverBody({ ...o, https: false }),
    ),
  });
  if (!hasCert) return http;
  const https = block({
    head: 'server',
    body: lines(
      ...zone.httpsPorts.map((p) => `listen ${p} ssl${o.zone.http2 ? ' http2' : ''};`),
      ...tlsDirectives({ dir }),
      serverBody({ ...o, https: true }),
    ),
  });
  return lines(http, https);
};

/** One site: an upstream per domain, an HTTP server per domain and an HTTPS one where it has a certificate. */
export const renderHttpSite = ({ site, zone, dir }: { site: edge.SiteStructure; zone: edge.ZoneStructure; dir: string }) => ({
  conf:
    lines(
      `# site ${site.id}: ${site.name.replace(/\s+/g, ' ')}`,
      siteMaps({ site }),
      ...site.domains.map((domain) => domainUpstreams({ domain, zone })),
      ...site.domains.map((domain) => domainServers({ site, domain, zone, dir })),
    ) + '\n',
  files: { ...errorPageFiles({ site }), ...wafFiles({ site }) },
});
