-- Access phase of every site request: an ordered pipeline of steps. A step gets the request context and may
-- return "allow" (skip the remaining steps), call ctx.deny(cause, rule) (the 929 page), ctx.drop(cause, rule)
-- (close, 444) or ctx.page(code, cause, body, rule) to answer, or return nothing to go on; `rule` is what refused
-- (see page.note). A new rule kind is one line in firewall().
local iplist = require "edgekeep.iplist"
local page = require "edgekeep.page"
local blocked = require "edgekeep.blocked"
local ip_rules = require "edgekeep.ip_rules"
local geo = require "edgekeep.geo"
local headers = require "edgekeep.request_headers"
local limits = require "edgekeep.limits"
local data = require "edgekeep.data"
local waf = require "edgekeep.waf"
local zone = require "edgekeep.zone"
local site_limits = require "edgekeep.site_limits"

local _M = {}

-- The site used up its month's traffic and its product says to stop serving it.
local function traffic(ctx)
  if data.rules(ctx, "trafficLimited") == true then return ctx.deny("traffic") end
end

-- The firewall steps in order, all skipped while the zone's firewall is off; "allow" skips the rest. They are
-- written out, not looped over: LuaJIT then compiles a request's whole access phase as one trace.
local function firewall(ctx)
  if zone.ipset(ctx) == "allow" then return end
  if ip_rules.whitelist(ctx) == "allow" then return end
  if blocked.check(ctx) == "allow" then return end
  if ip_rules.blacklist(ctx) == "allow" then return end
  if limits.abuse(ctx) == "allow" then return end
  if geo.check(ctx) == "allow" then return end
  if headers.user_agent(ctx) == "allow" then return end
  if headers.anti_header(ctx) == "allow" then return end
  if limits.limit_req(ctx) == "allow" then return end
  if limits.frequency(ctx) == "allow" then return end
  waf.step(ctx)
end

local function deny(cause, rule)
  return page.send(929, cause, nil, rule)
end

local function drop(cause, rule)
  page.note(cause, rule, "drop")
  return ngx.exit(444)
end

-- `live`: the live domain of a fixed server's request (live.lua), which names its site and domain; else nil, and the
-- server block's $ek_site and server_name do. `view`: the site's data where live.lua has it (data.view), `logged`:
-- whether the fixed server's location runs the log phase (site_limits.lua). Answers the zone's view it went by, for a
-- request that goes on.
function _M.run(live, view, logged)
  local site = live and live.ready.site or ngx.var.ek_site
  if not site or site == "" then return end
  local z = zone.view()
  if z.disk_full then ngx.var.ek_no_cache = "1" end
  local ip = ngx.var.remote_addr
  local key = iplist.client_key(ip)
  if not key then return end
  local ctx = { site = site, name = live and live.name, ip = ip, key = key, view = view or data.view(site), logged = logged, zone = z, deny = deny, drop = drop, page = page.send }
  zone.restricted(ctx)
  traffic(ctx)
  if ctx.zone.firewall then firewall(ctx) end
  -- Whitelisted or not, with the zone's firewall on or off, a served request counts against the site's limitations.
  site_limits.admit(ctx)
  return z
end

return _M
