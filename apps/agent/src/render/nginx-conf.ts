import type { edge } from '@edgekeep/contract';
import { GEO_MODULE, geoDirectives, STREAM_GEO_MODULE, unloggedGeoVariables, type GeoOptions } from './geo';
import { splitLive } from './live';
import { liveServer, liveUpstream } from './live-server';
import { cacheDirectories, siteCachePaths, siteCacheZones } from './site-cache';
import { streamCore } from './stream-firewall';
import { block, lines } from './text';
import { SNI_FILE } from './tls';
import { MODSECURITY_MODULE, usesWaf } from './waf';

/** The access log: one JSON object a line, the fields the agent ships to the analytics store. */
const LOG_FIELDS: [string, string][] = [
  ['time', '$time_iso8601'],
  ['msec', '$msec'],
  ['requestId', '$ek_log_request_id'],
  ['ray', '$ek_ray'],
  ['scheme', '$scheme'],
  ['site', '$ek_site'],
  ['domain', '$host'],
  ['clientIp', '$remote_addr'],
  ['country', '$ek_country'],
  ['asn', '$ek_asn'],
  ['isp', '$ek_isp'],
  ['region', '$ek_region'],
  ['city', '$ek_city'],
  ['method', '$request_method'],
  ['uri', '$request_uri'],
  ['status', '$status'],
  ['bytesSent', '$bytes_sent'],
  ['bytesReceived', '$request_length'],
  ['requestTime', '$request_time'],
  ['upstreamTime', '$upstream_response_time'],
  ['cacheStatus', '$upstream_cache_status'],
  ['httpVersion', '$server_protocol'],
  ['referer', '$http_referer'],
  ['userAgent', '$http_user_agent'],
  ['blockCause', '$ek_block'],
  ['blockRule', '$ek_block_rule'],
  ['blockAction', '$ek_block_action'],
];
export const ACCESS_LOG = 'logs/access.json';
const MODULES = ['ndk_http_module', 'ngx_http_lua_module', 'ngx_stream_module'];

const MIME_TYPES = `types {
  text/html html htm shtml;
  text/css css;
  text/plain txt;
  text/xml xml;
  application/javascript js;
  application/json json;
  image/gif gif;
  image/jpeg jpeg jpg;
  image/png png;
  image/svg+xml svg;
  image/webp webp;
  image/x-icon ico;
  font/woff woff;
  font/woff2 woff2;
  audio/mpeg mp3;
  video/mp4 mp4;
  application/pdf pdf;
  application/zip zip;
}`;

const luaString = (s: string) => JSON.stringify(s);
const luaList = (items: string[]) => (items.length ? `{ ${items.map(luaString).join(', ')} }` : '{}');

/** Room for every domain name in nginx's server-name hash (thousands of domains outgrow the default 512). */
const serverNamesHashSize = ({ state }: { state: edge.DesiredState }) => {
  const names = state.structure.sites.reduce((n, site) => n + site.domains.length, 0);
  let size = 512;
  while (size < names * 2) size *= 2;
  return size;
};

/**
 * `state`: what nginx renders (render/live.ts splits the live domains out); `whole`: the state with them, whose sites'
 * own cache zones nginx declares for rendered and live domains alike.
 */
type Options = { state: edge.DesiredState; whole: edge.DesiredState; dir: string; release: string; controlPort: number; builtinModules?: boolean; geo?: GeoOptions };

const http = ({ state, whole, dir, release, controlPort, geo }: Options) => {
  const { zone } = state.structure;
  const { nginx } = zone;
  const unlogged = unloggedGeoVariables({ geo });
  const { policies } = splitLive({ state: whole });
  const logFormat = LOG_FIELDS.filter(([, v]) => !unlogged.includes(v)).map(([k, v]) => `"${k}":"${v}"`).join(',');
  return block({
    head: 'http',
    body: lines(
      MIME_TYPES,
      'default_type application/octet-stream;',
      'sendfile on;',
      'tcp_nopush on;',
      'server_tokens off;',
      `keepalive_timeout ${nginx.keepaliveTimeout}s;`,
      `client_max_body_size ${nginx.clientMaxBodySize}m;`,
      `server_names_hash_max_size ${serverNamesHashSize({ state })};`,
      'server_names_hash_bucket_size 128;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path temp/${t};`),
      ...geoDirectives({ geo }),
      // the ray's request id (ray.lua), else nginx's: a request answered without headers (444) has no ray
      'map $ek_request_id $ek_log_request_id { "" $request_id; default $ek_request_id; }',
      `log_format ek_json escape=json '{${logFormat}}';`,
      `access_log ${ACCESS_LOG} ek_json;`,
      `proxy_cache_path cache levels=1:2 keys_zone=ek_cache:64m max_size=${nginx.cacheSize}m inactive=${nginx.cacheTime}m use_temp_path=off;`,
      siteCachePaths({ state: whole }),
      'proxy_cache_key $scheme://$host$request_uri;',
      'proxy_http_version 1.1;',
      `proxy_connect_timeout ${zone.proxy.connectTimeout}s;`,
      `proxy_send_timeout ${zone.proxy.sendTimeout}s;`,
      `proxy_read_timeout ${zone.proxy.readTimeout}s;`,
      `proxy_buffering ${zone.proxy.buffering ? 'on' : 'off'};`,
      'proxy_set_header Host $ek_origin_host;',
      'proxy_set_header Connection "";',
      'proxy_set_header X-Real-IP $remote_addr;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      `lua_package_path "${dir}/lua/?.lua;;";`,
      'lua_shared_dict ek_data 256m;',
      'lua_shared_dict ek_blocked 16m;',
      'lua_shared_dict ek_waf 32m;',
      'lua_shared_dict ek_limit 32m;',
      'lua_shared_dict ek_peers 8m;',
      // ek_live: the fixed servers' phases (edgekeep/live.lua) as a global, which their handlers reach without a
      // require() call on every request
      `init_by_lua_block { ek_live = require("edgekeep.live") require("edgekeep.data").boot({ file = ${luaString(`${dir}/data.json`)}, release = ${luaString(release)}, cache = ${luaList(cacheDirectories({ state: whole }))}, zones = ${luaList(siteCacheZones({ state: whole }))}, policies = ${luaList([...policies.keys()])}, token = "control.token", certs = ${luaString(`${dir}/${SNI_FILE}`)} }) }`,
      'init_worker_by_lua_block { require("edgekeep.data").worker_started() }',
      // the ray id, then the domain's response headers and CORS (the fixed servers' live.lua does the same)
      'header_filter_by_lua_block { require("edgekeep.ray").header_filter() require("edgekeep.site_modules").header_filter() }',
      liveUpstream({ zone }),
      liveServer({ zone, dir, policies }),
      block({
        head: 'server',
        body: lines(
          `listen 127.0.0.1:${controlPort};`,
          'access_log off;',
          'set $ek_site "";',
          'set $ek_domain "";',
          'set $ek_ray "";',
          'set $ek_request_id "";',
          'allow 127.0.0.1;',
          'deny all;',
          'client_max_body_size 64m;',
          'client_body_buffer_size 64m;',
          'location / { content_by_lua_block { require("edgekeep.control").handle() } }',
        ),
      }),
      zone.directives.http,
      'include sites/*.conf;',
    ),
  });
};

/** The main configuration: modules, worker settings, the http core and the stream (L4) core. */
export const renderNginxConf = (o: Options) => {
  const { nginx } = o.state.structure.zone;
  return (
    lines(
      `# EdgeKeep edge configuration, revision ${o.state.revision} (${o.release}). Rendered by the agent: do not edit.`,
      ...(o.builtinModules ? [] : [...MODULES, ...(o.geo ? [GEO_MODULE] : []), ...(o.geo?.stream ? [STREAM_GEO_MODULE] : [])].map((m) => `load_module modules/${m}.so;`)),
      usesWaf(o.state) && `load_module modules/${MODSECURITY_MODULE}.so;`,
      `worker_processes ${nginx.workerProcesses};`,
      o.state.structure.zone.directives.main,
      'pid logs/nginx.pid;',
      'env EK_PREFLIGHT;',
      'error_log logs/error.log warn;',
      block({ head: 'events', body: `worker_connections ${nginx.workerConnections};` }),
      http(o),
      block({
        head: 'stream',
        body: lines(
          streamCore(o),
          `proxy_connect_timeout ${nginx.streamConnectTimeout}s;`,
          `proxy_timeout ${nginx.streamTimeout}s;`,
          o.state.structure.zone.directives.stream,
          'include stream/*.conf;',
        ),
      }),
    ) + '\n'
  );
};
