-- Addresses blocked for a while on a site (drop with blacklist, repeated anti-CC failures): shared dict
-- `ek_blocked`, key "site|ip", value the cause, expiring after the given seconds.
local dict = ngx.shared.ek_blocked

local _M = {}

function _M.add(site_id, ip, cause, seconds)
  return dict:safe_set(site_id .. "|" .. ip, cause, seconds)
end

-- The cause the address is blocked for on the site, or nil.
function _M.get(site_id, ip)
  return dict:get(site_id .. "|" .. ip)
end

return _M
