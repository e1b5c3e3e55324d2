-- The shared dictionary `ek_data`: one document per site carrying every rule kind, the data revision, and what
-- the running configuration is. Rule kinds are compiled per worker, lazily, and again only when the site changed.
local cjson = require "cjson.safe"
local domain_modules = require "edgekeep.domain_modules"

local dict = ngx.shared.ek_data
local _M = {}
local compiled = {}
local compilers = {}

-- A rule kind's compiler: fn(raw value of doc[kind]) -> what the access steps use. Kinds without one are
-- handed out as pushed.
function _M.compiler(kind, fn)
  compilers[kind] = fn
end

-- Replaces the data with one document { revision, sites = [{ siteId, <kind> = ..., ... }], domains, zone, served,
-- certificates, pages, errorPages, live or liveDelta, liveDigest } (`pages`: the sites' own 929 pages by site id, see
-- page.lua; `errorPages`: their pages of statuses 300–599, see error_pages.lua; `live`: the domains the fixed servers
-- serve, see live.lua). The error pages and live domains are checked first: a bad one refuses the document.
-- Each site's document is swapped in one write, so a request sees either the old rules or the new ones.
-- safe_set: a full dictionary refuses the data rather than silently evicting another site's rules.
function _M.load(doc)
  if type(doc) ~= "table" or type(doc.sites) ~= "table" then return nil, "sites is missing" end
  local pages_checked, pages_why = require("edgekeep.error_pages").check(doc.errorPages)
  if not pages_checked then return nil, pages_why end
  local live_ok, live_err = require("edgekeep.live_store").take(doc)
  if not live_ok then return nil, live_err end
  local version = (dict:get("version") or 0) + 1
  local present = {}
  for _, site in ipairs(doc.sites) do
    if type(site) ~= "table" or site.siteId == nil then return nil, "a site without siteId" end
    local id = tostring(site.siteId)
    present[id] = true
    site.version = version
    local ok, err = dict:safe_set("site:" .. id, cjson.encode(site))
    if ok then ok, err = dict:safe_set("sitev:" .. id, version) end
    if not ok then return nil, "site " .. id .. ": " .. err end
    if type(site.unblocks) == "table" then require("edgekeep.blocked").lift(id, site.unblocks) end
  end
  for id in (dict:get("sites") or ""):gmatch("[^,]+") do
    if not present[id] then
      dict:delete("sitev:" .. id)
      dict:delete("site:" .. id)
    end
  end
  local ids = {}
  for id in pairs(present) do ids[#ids + 1] = id end
  dict:safe_set("sites", table.concat(ids, ","))
  local dm_ok, dm_err = domain_modules.load(doc.domains)
  if not dm_ok then return nil, dm_err end
  local zone_ok, zone_err = require("edgekeep.zone").load(doc.zone, doc.served)
  if not zone_ok then return nil, zone_err end
  local pages_ok, pages_err = dict:safe_set("pages", cjson.encode(type(doc.pages) == "table" and doc.pages or {}))
  if not pages_ok then return nil, "pages: " .. pages_err end
  local errors_ok, errors_err = require("edgekeep.error_pages").load(doc.errorPages)
  if not errors_ok then return nil, errors_err end
  dict:safe_set("version", version)
  local acme_ok, acme_err = require("edgekeep.acme").load(doc.acme)
  if not acme_ok then return nil, acme_err end
  if doc.certificates ~= nil then
    local ok, err = require("edgekeep.certs").load(doc.certificates)
    if not ok then return nil, err end
  end
  dict:safe_set("revision", tonumber(doc.revision) or 0)
  return true
end

-- This worker's view of one site: { version, raw, compiled }; nil when the node holds no data for it. `key`: its
-- version's key ("sitev:" and the id) where the caller keeps it.
local function site(site_id, key)
  local version = dict:get(key or "sitev:" .. site_id)
  if not version then return nil end
  local cached = compiled[site_id]
  if cached and cached.version == version then return cached end
  local raw = cjson.decode(dict:get("site:" .. site_id) or "")
  if not raw then return nil end
  cached = { version = version, raw = raw, compiled = {} }
  compiled[site_id] = cached
  return cached
end

-- This worker's view of a site for a request context's `view`: false when the node holds no data for it.
function _M.view(site_id, key)
  return site(site_id, key) or false
end

-- The compiled rules of one kind for the request's site: ctx.view, or ctx.site looked up once and kept in ctx.view;
-- nil when the site has none.
function _M.rules(ctx, kind)
  local s = ctx.view
  if s == nil then
    s = _M.view(ctx.site)
    ctx.view = s
  end
  if not s then return nil end
  local c = s.compiled[kind]
  if c == nil then
    local raw = s.raw[kind]
    local fn = compilers[kind]
    if raw == nil or raw == cjson.null then c = false
    elseif fn then c = fn(raw) or false
    else c = raw end
    s.compiled[kind] = c
  end
  return c or nil
end

-- Runs in the master at every (re)load; the dictionary outlives reloads. nginx -t skips it, so the agent
-- starts a release once with EK_PREFLIGHT=1 to prove it boots: that process stops here, before binding ports.
-- LuaJIT's default trace limits are sized for small loops; a request's access phase inlines every firewall step
-- and the generated rule matchers, and a trace cut short would leave that phase to the interpreter.
local JIT_LIMITS = { "maxrecord=16000", "maxirconst=2000", "maxsnap=2000", "maxside=200", "maxtrace=2000", "maxmcode=16384", "sizemcode=64" }

function _M.boot(opts)
  require("jit.opt").start(unpack(JIT_LIMITS))
  local f = assert(io.open(opts.file, "r"))
  local doc = assert(cjson.decode(f:read("*a")), "data file is not JSON")
  f:close()
  assert(_M.load(doc))
  if opts.certs then require("edgekeep.certs").boot(opts.certs) end
  local t = assert(io.open(ngx.config.prefix() .. opts.token, "r"))
  _M.token = assert(t:read("*l"), "control token is empty")
  t:close()
  _M.release = opts.release
  _M.cache = opts.cache
  -- the sites' own cache zones this configuration declares (a set): a live domain's are taken only where declared
  _M.zones = {}
  for _, zone in ipairs(opts.zones or {}) do _M.zones[zone] = true end
  -- the cache policies this configuration has a location for (a set): a live domain's rule is served by one only there
  _M.policies = {}
  for _, policy in ipairs(opts.policies or {}) do _M.policies[policy] = true end
  require "edgekeep.access"
  require "edgekeep.control"
  if os.getenv("EK_PREFLIGHT") == "1" then os.exit(0) end
end

-- Workers start only once a configuration is in place, so this is the configuration that serves.
function _M.worker_started()
  dict:set("release", _M.release)
  if ngx.worker.id() == 0 then dict:incr("loads", 1, 0) end
  require("edgekeep.live_store").worker_started()
end

function _M.status()
  return {
    revision = dict:get("revision"),
    release = dict:get("release"),
    loads = dict:get("loads"),
    workerPid = ngx.worker.pid(),
    liveDomains = require("edgekeep.live_store").count(),
    -- bytes of `ek_data` in use (its free space counts whole 4 KiB pages)
    dataBytes = dict:capacity() - dict:free_space(),
  }
end

return _M
