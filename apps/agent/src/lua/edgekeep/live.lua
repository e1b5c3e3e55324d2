-- The live domains (render/live.ts): served by the zone's fixed servers, picked by Host from the list pushed to
-- `ek_data` (live_store.lua) and balanced to their origins from the same data, so that a domain added, removed or
-- changed serves without a reload.
local balancer = require "ngx.balancer"
local store = require "edgekeep.live_store"
local access = require "edgekeep.access"
local error_pages = require "edgekeep.error_pages"
local ray = require "edgekeep.ray"
local site_modules = require "edgekeep.site_modules"
local site_limits = require "edgekeep.site_limits"
local live_cache = require "edgekeep.live_cache"

local peers = ngx.shared.ek_peers
local clear_header = ngx.req.clear_header
local new_tab = require "table.new"
local opt = store.opt
local data = require "edgekeep.data"  -- data.zones: this configuration's own cache zones, set at boot
local _M = {}

-- The ports of `list` as a set of their names, as $server_port reads them.
local function set_of(list)
  local set = {}
  for _, v in ipairs(list) do set[tostring(v)] = true end
  return set
end

-- What every request of a domain needs, worked out once per decoded record (live_store keeps records per
-- generation): its ports as sets, its ids as strings, its origins' peers (an IPv6 address in brackets) and whether
-- it has one primary origin only, which every try goes to. route()'s port check then has no loop, nor has balance()
-- for a domain of one primary origin: a loop cut their traces short and left them to LuaJIT's interpreter.
local function prepare(d)
  for _, o in ipairs(d.origins) do o.peer = o.host:find(":", 1, true) and "[" .. o.host .. "]" or o.host end
  local site, domain = tostring(d.site), tostring(d.domain)
  d.ready = {
    http_ports = set_of(d.httpPorts),
    https_ports = set_of(d.httpsPorts),
    site = site,
    domain = domain,
    -- the keys of the site's data and the domain's modules in `ek_data` (data.lua, domain_modules.lua), made once
    site_key = "sitev:" .. site,
    modules_key = "dmv:" .. domain,
    only = #d.origins == 1 and not d.origins[1].backup,
    -- a record stored before the field was pushed may have pages
    pages = d.errorPages ~= false,
  }
  local cache = opt(d.cache)
  if cache then live_cache.prepare(cache) end
  return d.ready
end

local function no_domain()
  require("edgekeep.zone").invalid_domain()
  return require("edgekeep.page").send(903, "no-domain")
end

-- The site's first rate rule (longest prefix first) whose prefix starts `$host$uri`: the answer's bytes a second.
local function limit_rate(d, var)
  local at = var.host .. var.uri
  for _, r in ipairs(d.rates) do
    if at:sub(1, #r.prefix) == r.prefix then
      var.limit_rate = r.rate
      return
    end
  end
end

-- Whether the request's body is over the domain's limit (below the zone's client_max_body_size, which nginx holds the
-- fixed servers to): its Content-Length tells at once; a body without one (chunked, or HTTP/2) is read first, which
-- nginx stops at the zone's limit with its own 413, and then measured.
local function body_over(limit, var)
  local length = tonumber(var.http_content_length)
  if length then return length > limit end
  ngx.req.read_body()
  local buffered = ngx.req.get_body_data()
  if buffered then return #buffered > limit end
  local path = ngx.req.get_body_file()
  if not path then return false end
  local file = io.open(path, "rb")
  if not file then return false end
  local size = file:seek("end")
  file:close()
  return size > limit
end

-- A webp site's image (by the path's extension, as render/site-options.ts maps it for a server block) varies on
-- Accept, and a client that accepts image/webp has it cached apart ("#webp" after the key), where the origin's webp
-- variant is kept.
local function webp(var)
  if not ngx.re.find(var.uri, [[\.(jpe?g|png|gif|bmp)$]], "ijo") then return end
  var.ek_vary = "Accept"
  local accept = var.http_accept
  if accept and accept:lower():find("image/webp", 1, true) then var.ek_cache_uri = var.ek_cache_uri .. "#webp" end
end

-- The site's own cache zone, where this configuration declares it. Pushed data can name one before the reload that
-- declares it is done (or after it, to a worker of the configuration before): the answer then goes to the shared
-- cache's lookup but is not stored, so nothing of the site lands outside its directory.
local function cache_zone(zone, var)
  if data.zones and data.zones[zone] then
    var.ek_cache_zone = zone
  else
    var.ek_no_cache = "1"
  end
end

-- The rest of route() in the location that serves the request: the record for the later phases, the body limit (a
-- 413 the site's error page may replace), then a cache rule's location. Answers true and `view`, the site's data
-- where the caller has it, which the access steps then take rather than look it up again.
local function go_on(d, var, acme, view)
  -- the request's ngx.ctx with room for what the later phases keep there (false: not yet), which costs less than
  -- growing it
  ngx.ctx = { live = d, live_zone = false, live_modules = false, live_tries = false, ek_request_id = false }
  local body = opt(d.bodyLimit)
  if body and body_over(body, var) then return ngx.exit(413) end
  local cache = opt(d.cache)
  if cache and not acme then live_cache.route(cache, var) end
  return true, view
end

-- rewrite_by_lua of the fixed servers: the request's live domain (on a port its site listens on, HTTPS only with a
-- certificate) sets $ek_site, $ek_domain, the origin scheme and HSTS, the rate, the cache key's path (and webp
-- variant) and zone, refuses a body over the site's limit (413), or redirects to HTTPS; else the 903 page; a request
-- a cache rule matches goes on to its policy's location. `acme`: the challenge location, never redirected. Answers
-- true when the request goes on in this location, for the access steps where they run in this phase (live-server.ts).
function _M.route(acme)
  local var = ngx.var
  local d = store.lookup(var.host)
  if not d then return no_domain() end
  local ready = d.ready or prepare(d)
  local port = var.server_port
  -- A port is the zone's for HTTP or for HTTPS, never both (nginx takes no port with and without ssl), and a site's
  -- ports are the zone's: a port among the site's HTTPS ones is an HTTPS request, and one of another HTTPS port is
  -- on none of the site's ports either way, so $https need not be read.
  local https = ready.https_ports[port] == true
  if not (https and d.https or not https and ready.http_ports[port]) then
    return no_domain()
  end
  var.ek_site = ready.site
  local redirect = opt(d.redirect)
  if redirect and not https and not acme then
    -- the header filter's domain, which has no record in ngx.ctx for this answer
    var.ek_domain = ready.domain
    return ngx.redirect("https://" .. var.host .. (redirect.port == 443 and "" or ":" .. redirect.port) .. var.request_uri, redirect.code)
  end
  -- the fixed servers set http
  if d.scheme ~= "http" then var.ek_scheme = d.scheme == "follow" and var.scheme or d.scheme end
  local hsts = opt(d.hsts)
  if https and hsts then var.ek_hsts = hsts end
  if d.rates[1] then limit_rate(d, var) end
  if d.cacheIgnoreQuery then var.ek_cache_uri = var.uri end
  if d.webp then webp(var) end
  local zone = opt(d.cacheZone)
  if zone then cache_zone(zone, var) end
  -- kept across the internal redirects below, as route()'s other variables are
  if d.keepalive == false then var.ek_upstream = "ek_live_close" end
  if acme then return go_on(d, var, true) end
  -- a domain whose site has error pages is served where the body filter puts them in place, one whose requests the
  -- log phase has work for (the site's limitations, least_conn) where it runs (live-server.ts); the others' requests
  -- run no Lua in either
  if ready.pages then return ngx.exec("@ek_pages") end
  local view = data.view(ready.site, ready.site_key)
  if d.leastConn or site_limits.limited(view) then return ngx.exec("@ek_logged") end
  return go_on(d, var, false, view)
end

-- rewrite_by_lua of the locations route() sends a domain's requests to (@ek_pages, @ek_logged): the internal
-- redirect cleared ngx.ctx, so the domain's record is found again (the variables route() set are kept), then route()
-- goes on.
function _M.moved()
  local var = ngx.var
  local d = store.lookup(var.host)
  if not d then return no_domain() end
  if not d.ready then prepare(d) end
  return go_on(d, var)
end

-- rewrite_by_lua of the policy locations: the internal redirect from route() cleared ngx.ctx, so the later phases
-- find the domain's record again (the variables route() set are kept). Answers true, as route() does.
function _M.resume()
  local d = store.lookup(ngx.var.host)
  if not d then return no_domain() end
  if not d.ready then prepare(d) end
  ngx.ctx.live = d
  return true
end

-- access_by_lua of the fixed servers: the access steps and traffic modules every server runs (the http level's), for
-- the site and domain of the record route() found rather than from nginx variables, which cost more to read.
-- `logged`: the location runs the log phase, without which a request is not counted against its site's limitations
-- (route() sends those of a site with limitations where it runs); `view`: the site's data as route() found it.
function _M.access(logged, view)
  local ctx = ngx.ctx
  local d = ctx.live
  local z = access.run(d, view, logged)
  -- the zone's view and the domain's modules for the header filter, which then need not look them up again
  ctx.live_zone = z
  local ready = d and d.ready
  ctx.live_modules = site_modules.access(ready and ready.domain, ready and ready.modules_key) or site_modules.NONE
end

-- header_filter_by_lua of the fixed servers, which runs before nginx's gzip filter: the site's error pages in place of
-- answers of their statuses; only a live domain of a gzip site is compressed, any other answer's request loses its
-- Accept-Encoding, which nginx compresses for (the origin and the cache's Vary have seen it by then); then what the
-- header filter of every server does (render/nginx-conf.ts): the ray id (for the server's add_header) and the domain's
-- modules again by its record. A redirect to
-- HTTPS has no record (route() answers it before): its domain is read from $ek_domain.
function _M.header_filter()
  local ctx = ngx.ctx
  local d = ctx.live
  if d and d.ready.pages then error_pages.header_filter(ctx, d) end
  if not (d and d.gzip) then clear_header("Accept-Encoding") end
  ray.mark(d and ctx.live_zone, ctx)
  site_modules.header_filter(d and d.ready.domain, d and ctx.live_modules)
end

-- body_filter_by_lua of the fixed servers: the site's error page in place of the body (error_pages.lua).
_M.body_filter = error_pages.body_filter

-- Passive health, as nginx's max_fails/fail_timeout: maxFails failed tries within failTimeout seconds take the
-- origin out for failTimeout seconds (0: never).
local function peer_key(d, o) return d.domain .. "|" .. o.host .. "|" .. o.port end
local function is_up(d, o) return not peers:get("down|" .. peer_key(d, o)) end
local function failed(d, o)
  if o.maxFails == 0 then return end
  local key = peer_key(d, o)
  local n = peers:incr("fails|" .. key, 1, 0, o.failTimeout)
  if n and n >= o.maxFails then peers:set("down|" .. key, true, o.failTimeout) end
end

-- Origins not tried yet for this request: the up primaries, else the up backups, else every primary.
local function candidates(d, tried)
  local primaries, backups, any = {}, {}, {}
  for i, o in ipairs(d.origins) do
    if not tried[i] then
      if not o.backup then any[#any + 1] = i end
      if is_up(d, o) then
        if o.backup then backups[#backups + 1] = i else primaries[#primaries + 1] = i end
      end
    end
  end
  if #primaries > 0 then return primaries end
  if #backups > 0 then return backups end
  return any
end

-- Key hashed for a hashed domain: its nginx variables' values, or the client address.
local function hash_of(key)
  if key == "" then return ngx.crc32_short(ngx.var.remote_addr) end
  return ngx.crc32_short((key:gsub("%$([%w_]+)", function(v) return ngx.var[v] or "" end)))
end

-- Least connections, as nginx's least_conn in an upstream without a shared zone: this worker's tries in flight per
-- origin (peer_key), taken in balance() and given back at the next try or in the log phase.
local busy = {}

local function take_busy(key)
  busy[key] = (busy[key] or 0) + 1
end

local function give_back(key)
  local n = busy[key]
  if not n then return end
  busy[key] = n > 1 and n - 1 or nil
end

-- The origins of `list` with the fewest tries in flight for their weight.
local function least(d, list)
  local fewest, best = {}, nil
  for _, i in ipairs(list) do
    local o = d.origins[i]
    local n = busy[peer_key(d, o)] or 0
    if not best or n * best.weight < best.n * o.weight then
      fewest, best = { i }, { n = n, weight = o.weight }
    elseif n * best.weight == best.n * o.weight then
      fewest[#fewest + 1] = i
    end
  end
  return fewest
end

-- Weighted pick among `list` (origin indexes): by the domain's hash key, else round robin in this worker. The round
-- robin's turn is kept on the domain's decoded record, so it goes with the record (a worker's cache holds a bounded
-- number of them) rather than staying for every domain a worker ever served.
local function pick(d, list)
  local total = 0
  for _, i in ipairs(list) do total = total + d.origins[i].weight end
  local n
  local hash = opt(d.hash)
  if hash then n = hash_of(hash) % total
  else
    n = (d.turn or 0) % total
    d.turn = n + 1
  end
  for _, i in ipairs(list) do
    n = n - d.origins[i].weight
    if n < 0 then return i end
  end
  return list[#list]
end

-- The peer of origin `o` for this try (the edge port's mapping, where the domain has one).
local function set_peer(d, o)
  local map = opt(d.portMap)
  local port = o.port
  if map then
    local edge = ngx.var.server_port
    port = map[edge] or tonumber(edge)
  end
  local ok, err = balancer.set_current_peer(o.peer, port)
  if not ok then
    ngx.log(ngx.ERR, "live origin ", o.host, ":", port, ": ", err)
    return ngx.exit(502)
  end
end

-- balancer_by_lua of the live upstream: one origin per try; a failed try counts against its origin and the next
-- try takes another one, as nginx's upstream would.
function _M.balance()
  local ctx = ngx.ctx
  local d = ctx.live
  if not d then return ngx.exit(502) end
  local tries = ctx.live_tries
  if d.ready.only and not d.leastConn then
    -- one origin, tried once, up or not, as candidates() would have it: the request keeps no list of its tries
    if tries then
      if balancer.get_last_failure() == "failed" then failed(d, d.origins[1]) end
      return ngx.exit(502)
    end
    ctx.live_tries = true
    return set_peer(d, d.origins[1])
  end
  -- the origins tried (tries[i]), the last one and the one in flight for least_conn
  if not tries then
    tries = new_tab(#d.origins, 2)
    ctx.live_tries = tries
    if #d.origins > 1 then balancer.set_more_tries(#d.origins - 1) end
  else
    if tries.busy then give_back(tries.busy) end
    tries.busy = nil
    if balancer.get_last_failure() == "failed" then failed(d, d.origins[tries.last]) end
  end
  local i = 1
  if d.ready.only then
    -- tried once, up or not, as candidates() would have it
    if tries[1] then return ngx.exit(502) end
  else
    local list = candidates(d, tries)
    if #list == 0 then return ngx.exit(502) end
    i = pick(d, d.leastConn and least(d, list) or list)
  end
  tries[i] = true
  tries.last = i
  local o = d.origins[i]
  if d.leastConn then
    tries.busy = peer_key(d, o)
    take_busy(tries.busy)
  end
  return set_peer(d, o)
end

-- log_by_lua of the fixed servers' locations that run it (live-server.ts): what a site's server does in its log phase
-- (render/http-site.ts), for the record's site (a request without one: $ek_site), then a least_conn domain's last try
-- is no longer in flight.
function _M.log()
  local ctx = ngx.ctx
  local d = ctx.live
  site_limits.log(d and d.ready.site)
  local tries = ctx.live_tries
  if tries and tries ~= true and tries.busy then
    give_back(tries.busy)
    tries.busy = nil
  end
end

return _M
