-- The advanced firewall step of the access pipeline: the WAF/ACL rules of the request's domain, then anti-CC.
-- The site's `waf` part of the data is compiled once per worker and data version.
local acl = require "edgekeep.acl"
local anticc = require "edgekeep.anticc"
local data = require "edgekeep.data"

local _M = {}

data.compiler("waf", function(raw)
  return { acl = acl.compile(raw.acl), anticc = raw.anticc }
end)

function _M.step(ctx)
  local waf = data.rules(ctx.site, "waf")
  if not waf then return end
  if acl.run(ctx.site, waf.acl) == "allow" then return "allow" end
  return anticc.run(ctx.site, waf.anticc)
end

return _M
