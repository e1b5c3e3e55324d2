-- Access phase of every site request: an ordered pipeline of steps. A step gets the request context and may
-- return "allow" (skip the remaining steps), call ctx.deny(cause) or ctx.page(code, cause, body) to answer with
-- a block page, or return nothing to go on. A new rule kind is one line in STEPS.
local iplist = require "edgekeep.iplist"
local page = require "edgekeep.page"
local blocked = require "edgekeep.blocked"
local ip_rules = require "edgekeep.ip_rules"

local _M = {}

local STEPS = {
  ip_rules.whitelist,
  blocked.check,
  ip_rules.blacklist,
}

local function deny(cause)
  return page.send(929, cause)
end

function _M.run()
  local site = ngx.var.ek_site
  if not site or site == "" then return end
  local ip = ngx.var.remote_addr
  local key = iplist.key(ip)
  if not key then return end
  local ctx = { site = site, ip = ip, key = key, deny = deny, page = page.send }
  for _, step in ipairs(STEPS) do
    if step(ctx) == "allow" then return end
  end
end

return _M
