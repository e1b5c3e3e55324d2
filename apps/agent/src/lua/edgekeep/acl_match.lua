-- Advanced WAF/ACL conditions: compiled once per data version, then evaluated against a request.
local iplist = require "edgekeep.iplist"

local counters = ngx.shared.ek_waf
local re_find = ngx.re.find

local _M = {}

local function header_var(name)
  return "http_" .. (name:lower():gsub("-", "_"))
end

-- What a condition looks at in the current request; nil when the request has no such value (ASN unknown).
local READ = {
  ip = function() return iplist.key(ngx.var.remote_addr) end,
  referer = function() return ngx.var.http_referer or "" end,
  method = function() return ngx.req.get_method() end,
  uri = function() return ngx.var.uri or "" end,
  query = function() return ngx.var.args or "" end,
  userAgent = function() return ngx.var.http_user_agent or "" end,
  header = function(c) return ngx.var[c.var] or "" end,
  cookie = function(c) return ngx.var[c.var] or "" end,
  asn = function() return tonumber(ngx.var.ek_asn) end,
  country = function() return (ngx.var.ek_country or ""):upper() end,
}

local function set_of(values)
  local set = {}
  for _, v in ipairs(values) do set[v] = true end
  return set
end

-- One condition as a table the matcher reads without further parsing.
function _M.compile(c, index)
  local out = { field = c.field, op = c.operator, regex = c.regex, seconds = c.seconds or 60, index = index }
  local list = type(c.value) == "table"
  if c.field == "header" then out.var = header_var(c.name) end
  if c.field == "cookie" then out.var = "cookie_" .. c.name end
  if c.field == "ip" then
    out.ranges = iplist.compile(list and c.value or { c.value })
  elseif c.field == "asn" or c.field == "frequency" then
    if list then
      out.set = {}
      for _, v in ipairs(c.value) do out.set[tonumber(v)] = true end
    else
      out.num = tonumber(c.value)
    end
  elseif list then
    out.set = set_of(c.value)
  else
    out.value = c.value
  end
  return out
end

local function compare(op, a, b)
  if op == "eq" then return a == b end
  if op == "ne" then return a ~= b end
  if op == "gt" then return a > b end
  if op == "lt" then return a < b end
  if op == "ge" then return a >= b end
  if op == "le" then return a <= b end
  return false
end

-- Requests of this address that reached this condition within its window, this one included.
local function frequency(site_id, rule_id, c, ip)
  local key = "f:" .. site_id .. ":" .. rule_id .. ":" .. c.index .. ":" .. ip
  local n = counters:incr(key, 1, 0, c.seconds)
  return n or 1
end

function _M.test(c, ctx)
  local op = c.op
  if c.field == "frequency" then
    local n = frequency(ctx.site, ctx.rule, c, ctx.ip)
    return compare(op, n, c.num)
  end
  local v = READ[c.field](c)
  if c.field == "ip" then
    local inside = v ~= nil and iplist.contains(c.ranges, v)
    if op == "eq" or op == "in" then return inside end
    return not inside
  end
  if c.field == "asn" then
    if v == nil then return false end
    if op == "in" then return c.set[v] == true end
    if op == "notIn" then return not c.set[v] end
    return compare(op, v, c.num)
  end
  if op == "in" then return c.set[v] == true end
  if op == "notIn" then return not c.set[v] end
  if op == "eq" then return v == c.value end
  if op == "ne" then return v ~= c.value end
  local found
  if c.regex then
    found = re_find(v, c.value, "jo") ~= nil
  else
    found = v:find(c.value, 1, true) ~= nil
  end
  if op == "contains" then return found end
  return not found
end

return _M
