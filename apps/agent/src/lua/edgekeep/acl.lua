-- Advanced WAF/ACL rules of a site: the modules assigned to the request's domain, rules in priority order;
-- the first rule that matches acts. Answers "allow" when an allow rule matched, so the caller skips the rest.
local acl_match = require "edgekeep.acl_match"
local blocked = require "edgekeep.blocked"
local page = require "edgekeep.page"

local _M = {}

-- Compiles a site's modules: domain name -> list of compiled rules.
function _M.compile(modules)
  local by_domain = {}
  for _, m in ipairs(modules or {}) do
    local rules = {}
    for _, r in ipairs(m.rules or {}) do
      local conds = {}
      for i, c in ipairs(r.conditions or {}) do conds[i] = acl_match.compile(c, i) end
      rules[#rules + 1] = {
        id = r.id, any = r.logic == "or", conds = conds, action = r.action,
        url = r.redirectURL, seconds = r.blockSeconds or 3600,
      }
    end
    for _, d in ipairs(m.domains or {}) do by_domain[d] = rules end
  end
  return by_domain
end

local function matches(rule, ctx)
  ctx.rule = rule.id
  for _, c in ipairs(rule.conds) do
    local hit = acl_match.test(c, ctx)
    if rule.any and hit then return true end
    if not rule.any and not hit then return false end
  end
  return not rule.any
end

local function act(rule, ctx)
  local a = rule.action
  if a == "allow" then return "allow" end
  ngx.var.ek_block = "acl"
  if a == "deny" then return page.send(929, "acl") end
  if a == "dropBlacklist" then blocked.add(ctx.site, ctx.ip, "acl", rule.seconds) end
  if a == "drop" or a == "dropBlacklist" then return ngx.exit(444) end
  if a == "redirect301" then return ngx.redirect(rule.url, 301) end
  if a == "redirect302" then return ngx.redirect(rule.url, 302) end
end

function _M.run(site_id, compiled)
  local rules = compiled and compiled[ngx.var.server_name]
  if not rules then return end
  local ctx = { site = site_id, ip = ngx.var.remote_addr }
  for _, rule in ipairs(rules) do
    if matches(rule, ctx) then return act(rule, ctx) end
  end
end

return _M
