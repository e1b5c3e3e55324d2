-- Anti-referer and anti-header rules of a domain: a refused request gets the 929 block page, like every firewall
-- deny, and is logged with its cause.
local match = require "edgekeep.match"
local page = require "edgekeep.page"

local _M = {}


local function host_of(referer)
  local host = referer:match("^%a[%w+.-]*://([^/?#]+)")
  if not host then return nil end
  host = host:gsub("^.*@", ""):gsub(":%d+$", "")
  return host:lower()
end

local function host_matches(list, host)
  for _, pattern in ipairs(list or {}) do
    if pattern:sub(1, 2) == "*." then
      local base = pattern:sub(2)
      if host:sub(-#base) == base or host == pattern:sub(3) then return true end
    elseif host == pattern then
      return true
    end
  end
  return false
end

-- allow rules: the referer must match one (the empty referer only where a rule allows it);
-- deny rules: a matching referer (or the empty one, where a rule says so) is refused.
local function referer_ok(rules, referer)
  local host = referer and referer ~= "" and host_of(referer) or nil
  local empty = host == nil
  local has_allow, allowed = false, false
  for _, r in ipairs(rules) do
    if r.type == "deny" then
      if (empty and r.empty) or (not empty and host_matches(r.referers, host)) then return false end
    else
      has_allow = true
      if (empty and r.empty) or (not empty and host_matches(r.referers, host)) then allowed = true end
    end
  end
  return not has_allow or allowed
end

local function header_hit(rule)
  local value = ngx.req.get_headers()[rule.name]
  if type(value) == "table" then value = table.concat(value, ", ") end
  if rule.operator == "exists" then return value ~= nil end
  if rule.operator == "missing" then return value == nil end
  if value == nil then return false end
  if rule.operator == "equals" then return value == rule.value end
  if rule.operator == "contains" then return value:find(rule.value, 1, true) ~= nil end
  if rule.operator == "regex" then return match.re(value, rule.value) end
  return false
end

function _M.access(cfg)
  if cfg.referers and #cfg.referers > 0 and not referer_ok(cfg.referers, ngx.var.http_referer) then
    return page.send(929, "referer")
  end
  for _, rule in ipairs(cfg.headerRules or {}) do
    if header_hit(rule) then return page.send(929, "header") end
  end
end

return _M
