-- The advanced firewall of a site, run from the access phase after the IP lists: blocked addresses are
-- dropped, then the WAF/ACL rules of the request's domain, then anti-CC. Each site's part of the data is
-- compiled once per worker and data version; requests read only the compiled tables.
local cjson = require "cjson.safe"
local acl = require "edgekeep.acl"
local anticc = require "edgekeep.anticc"
local blocked = require "edgekeep.blocked"

local dict = ngx.shared.ek_data
local _M = {}
local compiled = {}

local function site_waf(site_id)
  local version = dict:get("aclv:" .. site_id)
  if not version then return nil end
  local cached = compiled[site_id]
  if cached and cached.version == version then return cached end
  local raw = cjson.decode(dict:get("acl:" .. site_id) or "")
  local waf = raw and raw.waf
  cached = { version = version, acl = waf and acl.compile(waf.acl) or nil, anticc = waf and waf.anticc or nil }
  compiled[site_id] = cached
  return cached
end

function _M.run(site_id)
  if blocked.get(site_id, ngx.var.remote_addr) then
    ngx.var.ek_block = "blocked"
    return ngx.exit(444)
  end
  local waf = site_waf(site_id)
  if not waf then return end
  if acl.run(site_id, waf.acl) == "allow" then return end
  return anticc.run(site_id, waf.anticc)
end

return _M
