-- The advanced firewall step of the access pipeline: the WAF/ACL rules of the request's domain, then anti-CC
-- (the site's, or the zone's default).
-- The site's `waf` part of the data is compiled once per worker and data version.
local acl = require "edgekeep.acl"
local anticc = require "edgekeep.anticc"
local data = require "edgekeep.data"

local _M = {}

data.compiler("waf", function(raw)
  return { acl = acl.compile(raw.acl), anticc = raw.anticc }
end)

-- A site without anti-CC rules of its own is protected by the zone's default ones.
function _M.step(ctx)
  local waf = data.rules(ctx, "waf")
  if waf and acl.run(ctx, waf.acl) == "allow" then return "allow" end
  local cc = waf and waf.anticc
  if not cc or #cc == 0 then cc = ctx.zone.anticc end
  return anticc.run(ctx.site, cc)
end

return _M
