-- The shared dictionary `ek_data`: per-site IP lists, the data revision, and what the running configuration is.
local cjson = require "cjson.safe"
local iplist = require "edgekeep.iplist"
local domain_modules = require "edgekeep.domain_modules"

local dict = ngx.shared.ek_data
local _M = {}
local compiled = {}

-- Replaces the data with one document { revision, sites = [{ siteId, blacklist, whitelist, trafficLimited }] }.
-- Each site's lists are swapped in one write, so a request sees either the old lists or the new ones.
-- safe_set: a full dictionary refuses the data rather than silently evicting another site's lists.
function _M.load(doc)
  if type(doc) ~= "table" or type(doc.sites) ~= "table" then return nil, "sites is missing" end
  local version = (dict:get("version") or 0) + 1
  local present = {}
  for _, site in ipairs(doc.sites) do
    local id = tostring(site.siteId)
    present[id] = true
    local ok, err = dict:safe_set("acl:" .. id, cjson.encode({
      version = version,
      blacklist = site.blacklist or {},
      whitelist = site.whitelist or {},
      limited = site.trafficLimited == true,
      waf = site.waf,
    }))
    if ok then ok, err = dict:safe_set("aclv:" .. id, version) end
    if not ok then return nil, "site " .. id .. ": " .. err end
  end
  for id in (dict:get("sites") or ""):gmatch("[^,]+") do
    if not present[id] then
      dict:delete("aclv:" .. id)
      dict:delete("acl:" .. id)
    end
  end
  local ids = {}
  for id in pairs(present) do ids[#ids + 1] = id end
  dict:safe_set("sites", table.concat(ids, ","))
  local dm_ok, dm_err = domain_modules.load(doc.domains)
  if not dm_ok then return nil, dm_err end
  dict:safe_set("version", version)
  if doc.certificates ~= nil then
    local ok, err = require("edgekeep.certs").load(doc.certificates)
    if not ok then return nil, err end
  end
  dict:safe_set("revision", tonumber(doc.revision) or 0)
  return true
end

-- The compiled lists of one site, rebuilt in this worker only when the site's data changed.
function _M.site_lists(site_id)
  local version = dict:get("aclv:" .. site_id)
  if not version then return nil end
  local cached = compiled[site_id]
  if cached and cached.version == version then return cached end
  local raw = cjson.decode(dict:get("acl:" .. site_id) or "")
  if not raw then return nil end
  cached = { version = version, blacklist = iplist.compile(raw.blacklist), whitelist = iplist.compile(raw.whitelist), limited = raw.limited == true }
  compiled[site_id] = cached
  return cached
end

-- Runs in the master at every (re)load; the dictionary outlives reloads. nginx -t skips it, so the agent
-- starts a release once with EK_PREFLIGHT=1 to prove it boots: that process stops here, before binding ports.
function _M.boot(opts)
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
  require "edgekeep.access"
  require "edgekeep.control"
  if os.getenv("EK_PREFLIGHT") == "1" then os.exit(0) end
end

-- Workers start only once a configuration is in place, so this is the configuration that serves.
function _M.worker_started()
  dict:set("release", _M.release)
  if ngx.worker.id() == 0 then dict:incr("loads", 1, 0) end
end

function _M.status()
  return {
    revision = dict:get("revision"),
    release = dict:get("release"),
    loads = dict:get("loads"),
    workerPid = ngx.worker.pid(),
  }
end

return _M
