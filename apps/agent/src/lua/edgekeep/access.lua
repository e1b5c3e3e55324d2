-- Access phase of every site request: an ordered pipeline of steps. A step gets the request context and may
-- return "allow" (skip the remaining steps), call ctx.deny(cause) (the 929 page), ctx.drop(cause) (close, 444)
-- or ctx.page(code, cause, body) to answer, or return nothing to go on. A new rule kind is one line in FIREWALL.
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

-- The firewall steps: all skipped while the zone's firewall is off.
local FIREWALL = {
  zone.ipset,
  ip_rules.whitelist,
  blocked.check,
  ip_rules.blacklist,
  limits.abuse,
  geo.check,
  headers.user_agent,
  headers.anti_header,
  limits.limit_req,
  limits.frequency,
  waf.step,
}

local function deny(cause)
  return page.send(929, cause)
end

local function drop(cause)
  ngx.var.ek_block = cause or ""
  return ngx.exit(444)
end

function _M.run()
  local site = ngx.var.ek_site
  if not site or site == "" then return end
  local ip = ngx.var.remote_addr
  local key = iplist.client_key(ip)
  if not key then return end
  local ctx = { site = site, ip = ip, key = key, deny = deny, drop = drop, page = page.send }
  traffic(ctx)
  if zone.firewall_on() then
    for _, step in ipairs(FIREWALL) do
      if step(ctx) == "allow" then break end
    end
  end
  -- Whitelisted or not, with the zone's firewall on or off, a served request counts against the site's limitations.
  site_limits.admit(ctx)
end

return _M
