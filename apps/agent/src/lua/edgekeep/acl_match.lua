-- Advanced WAF/ACL conditions: each condition becomes one Lua expression of the matcher that acl.lua generates.
-- An expression reads the request values as locals (read once per generated function, see READ) and everything a rule
-- author wrote (strings, lists, patterns, numbers) as K[j]: no value of a rule ever becomes Lua source.
local iplist = require "edgekeep.iplist"

local _M = {}

local function header_var(name)
  return "http_" .. (name:lower():gsub("-", "_"))
end

-- Headers that nginx has a variable of its own for, which it reads its own way (Cookie and X-Forwarded-For joined):
-- read through that variable. Any other header is looked up in the request's headers, read once (acl.lua).
local KNOWN_HEADER = { http_host = true, http_user_agent = true, http_referer = true, http_via = true, http_x_forwarded_for = true, http_cookie = true }

-- The Lua expression reading what a field looks at; nil when the request has no such value (ASN unknown).
-- "%s" is the K index of the nginx variable's name, for header and cookie.
local READ = {
  ip = "ctx.key",
  referer = 'var.http_referer or ""',
  method = "get_method()",
  uri = 'var.uri or ""',
  query = 'var.args or ""',
  userAgent = 'var.http_user_agent or ""',
  header = 'var[K[%d]] or ""',
  -- "%s": the local holding the request's headers (acl.lua's request_headers); "%d": the K index of the name there
  header_table = '%s[K[%d]] or ""',
  cookie = 'var[K[%d]] or ""',
  asn = "tonumber(var.ek_asn)",
  country = 'upper(var.ek_country or "")',
}

local COMPARE = { eq = "==", ne = "~=", gt = ">", lt = "<", ge = ">=", le = "<=" }

local function set_of(values, convert)
  local set = {}
  for _, v in ipairs(values) do
    local key = convert and convert(v) or v
    if key ~= nil then set[key] = true end
  end
  return set
end

-- Whether a condition reads the request's headers (a header nginx has no variable of its own for).
local function reads_headers(c)
  return c.field == "header" and not KNOWN_HEADER[header_var(c.name)]
end

-- Whether any condition of `rules` reads the request's headers.
function _M.read_headers(rules)
  for _, r in ipairs(rules) do
    for _, c in ipairs(r.conditions or {}) do
      if reads_headers(c) then return true end
    end
  end
  return false
end

-- Generates the matcher's code for conditions. `k(value)` stores a value in K and answers its index; `slot(name,
-- expr)` answers the local that holds a request value, reading it once; `pattern(v, regex)` answers the expression
-- for "the value in local v matches regex". `with_headers`: the code reads the request's headers anyway
-- (read_headers), and takes the user agent from them too (the first User-Agent, as $http_user_agent).
function _M.generator(k, slot, pattern, with_headers)
  local gen = {}

  local function from_headers(name, lowercase)
    local headers = slot("headers", "request_headers(ctx)")
    return slot(name, READ.header_table:format(headers, k(lowercase)))
  end

  -- The value a condition looks at: the local name of that request value.
  local function value_of(c)
    if reads_headers(c) then
      local var = header_var(c.name)
      return from_headers("header:" .. var, (var:sub(6):gsub("_", "-")))
    end
    if c.field == "header" or c.field == "cookie" then
      local var = c.field == "header" and header_var(c.name) or "cookie_" .. c.name
      return slot(c.field .. ":" .. var, READ[c.field]:format(k(var)))
    end
    if c.field == "userAgent" and with_headers then return from_headers("userAgent", "user-agent") end
    return slot(c.field, READ[c.field])
  end

  -- One condition as a boolean Lua expression. `rule_id` and `index` name its frequency counter.
  function gen.condition(c, rule_id, index)
    local op = c.operator
    local list = type(c.value) == "table"
    if c.field == "frequency" then
      local cmp = COMPARE[op]
      if not cmp then return "false" end
      return ("(frequency(ctx, %d, %d, %d) %s %d)"):format(tonumber(rule_id) or 0, index, tonumber(c.seconds) or 60, cmp, tonumber(c.value) or 0)
    end
    local v = value_of(c)
    if c.field == "ip" then
      local ranges = k(iplist.compile(list and c.value or { c.value }))
      local inside = ("(%s ~= nil and contains(K[%d], %s))"):format(v, ranges, v)
      if op == "eq" or op == "in" then return inside end
      return "not " .. inside
    end
    if c.field == "asn" then
      if op == "in" or op == "notIn" then
        local set = k(set_of(list and c.value or { c.value }, tonumber))
        local member = op == "in" and "K[%d][%s] == true" or "not K[%d][%s]"
        return ("(%s ~= nil and %s)"):format(v, member:format(set, v))
      end
      local cmp = COMPARE[op]
      if not cmp or not tonumber(c.value) then return "false" end
      return ("(%s ~= nil and %s %s %d)"):format(v, v, cmp, tonumber(c.value))
    end
    if op == "in" then return ("(K[%d][%s] == true)"):format(k(set_of(list and c.value or { c.value })), v) end
    if op == "notIn" then return ("(not K[%d][%s])"):format(k(set_of(list and c.value or { c.value })), v) end
    if list then return "false" end
    if op == "eq" then return ("(%s == K[%d])"):format(v, k(c.value)) end
    if op == "ne" then return ("(%s ~= K[%d])"):format(v, k(c.value)) end
    if op ~= "contains" and op ~= "notContains" then return "false" end
    local found
    if c.regex then
      found = pattern(v, c.value)
    else
      found = ("(find(%s, K[%d], 1, true) ~= nil)"):format(v, k(c.value))
    end
    return op == "contains" and found or ("not " .. found)
  end

  return gen
end

return _M
