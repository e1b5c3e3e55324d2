-- The zone's part of the data (`zone` of the pushed document): the firewall switch, the IP sets, the default
-- anti-CC, the per-address limits of unknown hosts and TLS handshakes, and the zone owner's restricted subnets, ray
-- id parts and 903 page. Held in `ek_data`, compiled per worker.
local cjson = require "cjson.safe"
local iplist = require "edgekeep.iplist"
local blocked = require "edgekeep.blocked"
local page = require "edgekeep.page"

local dict = ngx.shared.ek_data
local counters = ngx.shared.ek_limit
local _M = {}
local cached = { version = -1 }

local WINDOW = 60
local BLOCK_SECONDS = 600

-- Replaces the zone document (without one: every default, firewall on and nothing else) and the ids of the sites
-- the node serves.
function _M.load(doc, served)
  local ok, err = dict:safe_set("zone", cjson.encode(type(doc) == "table" and doc or {}))
  if ok then ok, err = dict:safe_set("served", table.concat(type(served) == "table" and served or {}, ",")) end
  if not ok then return nil, "zone: " .. err end
  dict:incr("zonev", 1, 0)
  return true
end

-- Whether the node's disk is full (the agent's report, control.lua): part of the zone's view, which the access phase
-- reads anyway.
function _M.disk_full(full)
  dict:set("disk_full", full)
  dict:incr("zonev", 1, 0)
end

local function current()
  local version = dict:get("zonev") or 0
  if cached.version == version then return cached end
  local raw = cjson.decode(dict:get("zone") or "{}") or {}
  local anticc = type(raw.anticc) == "table" and raw.anticc or {}
  local ray = type(raw.ray) == "table" and raw.ray or {}
  cached = {
    version = version,
    firewall = raw.firewall ~= false,
    ipset = iplist.compile(type(raw.ipset) == "table" and raw.ipset or {}),
    anticc = #anticc > 0 and anticc or nil,
    invalid_domain = tonumber(raw.invalidDomainLimit) or 0,
    tls = tonumber(raw.tlsLimit) or 0,
    restricted = iplist.compile(type(raw.restricted) == "table" and raw.restricted or {}),
    ray = { parts = type(ray.parts) == "table" and ray.parts or {}, node = tonumber(ray.node) or 0 },
    no_domain_page = type(raw.noDomainPage) == "table" and raw.noDomainPage or nil,
    disk_full = dict:get("disk_full") == true,
  }
  return cached
end

-- This worker's view of the zone for a request context's `zone`: { firewall, ipset, anticc (nil when none), ... }.
_M.view = current

-- Access step: an address of the zone's IP sets has its connection dropped on every site.
function _M.ipset(ctx)
  if iplist.contains(ctx.zone.ipset, ctx.key) then return ctx.drop("ipset") end
end

-- Access step: an address of the zone owner's restricted subnets gets the 929 page, whatever the site's lists and
-- the firewall switch say.
function _M.restricted(ctx)
  if iplist.contains(ctx.zone.restricted, ctx.key) then return ctx.deny("restricted") end
end

-- Counts one event of `kind` for `ip` in the current minute; true when it is over `limit` (0: no limit).
local function over(kind, ip, limit)
  if limit <= 0 then return false end
  local n = counters:incr(kind .. "|" .. ip, 1, 0, WINDOW)
  return n ~= nil and n > limit
end

-- The node's catch-all server (a Host no site serves): over the zone's count an address is blocked on every
-- site of the node with cause invalidDomain, and its connections here are dropped.
function _M.invalid_domain()
  local ip = ngx.var.remote_addr
  if not over("idl", ip, current().invalid_domain) then return end
  for site in (dict:get("served") or ""):gmatch("[^,]+") do
    if not blocked.get(site, ip) then blocked.add(site, ip, "invalidDomain", BLOCK_SECONDS) end
  end
  page.note("invalidDomain", nil, "dropBlacklist")
  return ngx.exit(444)
end

-- ssl_certificate_by_lua: false when the client's address made more handshakes this minute than the zone allows.
function _M.tls_allowed()
  local limit = current().tls
  if limit <= 0 then return true end
  local addr = require("ngx.ssl").raw_client_addr()
  if not addr then return true end
  return not over("tls", ngx.encode_base64(addr), limit)
end

return _M
