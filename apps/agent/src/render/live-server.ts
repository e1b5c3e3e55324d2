import type { edge } from '@edgekeep/contract';
import { cachePolicy, type CachePolicy } from './cache-locations';
import { ACME_CHALLENGE_LOCATION, GZIP, LUA_LOG_VARIABLES } from './http-site';
import { block, indent, lines } from './text';
import { tlsDirectives } from './tls';

/** Idle connections the live upstream keeps to all origins together (nginx matches them by address). */
const LIVE_KEEPALIVE = 1024;

/**
 * The upstreams of the live domains, each request's origin chosen by the Lua balancer from the pushed data: `ek_live`,
 * which keeps idle connections to the origins, and `ek_live_close`, which keeps none, for the domains whose keepalive
 * is 0 (route() names it in $ek_upstream).
 */
export const liveUpstream = ({ zone }: { zone: edge.ZoneStructure }) =>
  lines(
    ...[
      ['ek_live', `keepalive ${LIVE_KEEPALIVE};`, `keepalive_timeout ${zone.proxy.keepaliveTimeout}s;`],
      ['ek_live_close'],
    ].map(([name, ...keep]) =>
      block({
        head: `upstream ${name}`,
        // the server is never used: nginx wants one in every upstream; the balancer sets the peer of each try
        body: lines('server 0.0.0.1;', 'balancer_by_lua_block { ek_live.balance() }', ...keep),
      }),
    ),
  );

/** A location that proxies a live domain's request to its origins, caching by `policy` (none: as the origin says). */
const proxyLocation = (head: string, policy: CachePolicy | undefined, ...more: (string | false)[]) =>
  block({ head, body: lines(...more, GZIP, cachePolicy(policy, '$ek_cache_zone'), 'proxy_cache_key $scheme://$host$ek_cache_uri;', 'proxy_pass $ek_scheme://$ek_upstream;') });

/**
 * nginx's own directives of the access phase and of the one before it (limit_req, limit_conn), which run before
 * access_by_lua, and what may hide one (include). Where the zone's own directives name one, the fixed servers keep the
 * access steps in the access phase, after them; elsewhere the steps run at the end of the rewrite phase, right after
 * route(), which spares every request a Lua phase (a coroutine) of its own.
 */
const ACCESS_PHASE = /(^|[;{}\s])(allow|deny|auth_basic|auth_request|limit_req|limit_conn|satisfy|modsecurity\w*|access_by_lua\w*|include)\s/;
const accessApart = (zone: edge.ZoneStructure) => ACCESS_PHASE.test(`${zone.directives.http}\n${zone.directives.server}`);

/**
 * The rewrite handler that finds the request's domain (`call`: route(), moved() or resume(), which answer whether the
 * request goes on here and may hand on the site's data), then the access steps where they run in that phase.
 * `logged`: the location runs the log phase, which lets go of a request counted against its site's limitations.
 */
const rewriteHandler = (call: string, apart: boolean, logged: boolean) =>
  apart ? `rewrite_by_lua_block { ${call} }` : `rewrite_by_lua_block { local go, view = ${call} if go then ek_live.access(${logged}, view) end }`;

/** The access steps of a location that runs the log phase, where they run in the access phase (the server's own have none). */
const loggedAccess = (apart: boolean) => apart && 'access_by_lua_block { ek_live.access(true) }';

/**
 * The log phase (edgekeep/live.lua): what every server's does, for the domain route() found, and a least_conn domain's
 * origin has a request in flight no longer. Only in the locations route() sends the requests that need it to (the
 * domain's site has limitations, or the domain balances by least connections), and the named ones: no other request
 * of the fixed servers runs a Lua log phase (the http level has none either).
 */
const LOG = 'log_by_lua_block { ek_live.log() }';

/**
 * The body filter that puts a site's error page in place of the body (edgekeep/error_pages.lua): only in the locations
 * that may answer with one. route() sends a domain whose site has error pages to `@ek_pages`, where pages() takes the
 * request up (the body limit and the cache rules), so that every other request's body passes no Lua filter.
 */
const BODY_FILTER = 'body_filter_by_lua_block { ek_live.body_filter() }';
const pagesLocation = (apart: boolean) =>
  proxyLocation('location @ek_pages', undefined, rewriteHandler('ek_live.moved()', apart, true), loggedAccess(apart), BODY_FILTER, LOG);
const loggedLocation = (apart: boolean) => proxyLocation('location @ek_logged', undefined, rewriteHandler('ek_live.moved()', apart, true), loggedAccess(apart), LOG);

/**
 * One named location per cache policy the live domains' rules use (`proxy_cache_valid` takes no variable): route()
 * sends a request a rule matches there. The internal redirect clears ngx.ctx and skips the server's rewrite
 * directives, not the variables route() set: resume() finds the domain's record again for the later phases.
 */
const policyLocations = (policies: Map<string, CachePolicy>, apart: boolean) =>
  [...policies].map(([name, policy]) =>
    proxyLocation(`location @ek_cache_${name}`, policy, rewriteHandler('ek_live.resume()', apart, true), loggedAccess(apart), BODY_FILTER, LOG),
  );

/**
 * The zone's fixed server, default on every HTTP and HTTPS port: a Host that no server block names is looked up
 * in the live domains (edgekeep/live.lua sets the site, domain, origin scheme, HSTS, rate, cache key and zone,
 * refuses a body over the site's limit, or redirects to HTTPS; edgekeep/error_pages.lua puts the site's error pages
 * in place); a name no site serves, or the bare address, gets the 903 page. Its locations compress as a gzip site's
 * server does (in the locations: a zone's own server directives may name gzip settings too), and the runtime's header
 * filter, which runs before nginx's gzip filter, hides the client's Accept-Encoding from it for any other answer; the
 * origin and the cache's Vary still see the client's. Its `client_max_body_size` is the
 * zone's, inherited from the http level: the most any live domain takes.
 */
export const liveServer = ({ zone, dir, policies }: { zone: edge.ZoneStructure; dir: string; policies: Map<string, CachePolicy> }) => {
  const apart = accessApart(zone);
  return block({
    head: 'server',
    body: lines(
      ...zone.httpPorts.map((p) => `listen ${p} default_server;`),
      ...zone.httpsPorts.map((p) => `listen ${p} ssl${zone.http2 ? ' http2' : ''} default_server;`),
      ...tlsDirectives({ dir }),
      'server_name _;',
      'set $ek_site "";',
      'set $ek_domain "";',
      'set $ek_origin_host $host;',
      'set $ek_scheme http;',
      'set $ek_hsts "";',
      // the cache key's path: live.lua leaves the query out for a domain whose site caches on the path alone, and adds
      // the webp variant
      'set $ek_cache_uri $request_uri;',
      'set $ek_vary "";',
      // the cache zone: live.lua names the site's own where it has a directory (its zone is declared in nginx.conf)
      'set $ek_cache_zone ek_cache;',
      // the upstream by name (nginx looks a proxy_pass host up among the upstreams first): ek_live_close for a domain
      // whose origin connections are not kept
      'set $ek_upstream ek_live;',
      ...LUA_LOG_VARIABLES,
      'add_header X-Cache $upstream_cache_status always;',
      // the ray id the runtime's header filter sets (edgekeep/ray.lua), which runs before nginx's headers filter
      'add_header X-Ray-ID $ek_ray always;',
      // an empty value sends no header: only HTTPS answers of domains with HSTS carry it, images of webp sites Vary
      'add_header Strict-Transport-Security $ek_hsts always;',
      'add_header Vary $ek_vary;',
      zone.directives.server,
      'proxy_ssl_server_name on;',
      'proxy_ssl_name $host;',
      // the access steps and traffic modules of every site's server (http-site.ts), for the domain route() found
      rewriteHandler('ek_live.route()', apart, false),
      apart && 'access_by_lua_block { ek_live.access(false) }',
      // the site's error pages (300–599) in place of answers of their statuses, before the headers every answer gets
      // (the http level's, for the domain route() found); their bodies in the locations that may answer with one
      'header_filter_by_lua_block { ek_live.header_filter() }',
      ACME_CHALLENGE_LOCATION.replace('{\n', `{\n${indent({ text: lines('rewrite_by_lua_block { ek_live.route(true) }', GZIP, BODY_FILTER, LOG) })}\n`),
      proxyLocation('location /', undefined),
      pagesLocation(apart),
      loggedLocation(apart),
      ...policyLocations(policies, apart),
    ),
  });
};
