-- Advanced WAF/ACL rules of a site: the modules assigned to the request's domain, rules in priority order;
-- the first rule that matches acts. Answers "allow" when an allow rule matched, so the caller skips the rest.
--
-- A module's rules are compiled into Lua: one function per block of rules, each rule one `if` over its conditions
-- (`and` / `or`, short-circuit, in the order written). Straight code with no loop is what LuaJIT compiles into
-- one trace; a generic loop over conditions of different kinds was interpreted and cost most of the edge's time.
local acl_match = require "edgekeep.acl_match"
local match = require "edgekeep.match"
local blocked = require "edgekeep.blocked"
local page = require "edgekeep.page"

local counters = ngx.shared.ek_waf

local header_table = require "edgekeep.header_table"

local _M = {}

-- Conditions per generated function: small enough for one trace and well under Lua's 200 locals.
local BLOCK_CONDITIONS = 60

-- What the generated code calls.
local RUNTIME = {
  re_test = match.test,
  re_maybe = match.maybe,
  find = string.find,
  upper = string.upper,
  tonumber = tonumber,
  contains = require("edgekeep.iplist").contains,
  get_method = ngx.req.get_method,
  var = ngx.var,
  -- The request's headers (header_table.lua), read once for all of a request's rules.
  request_headers = function(ctx)
    local headers = ctx.headers
    if not headers then
      headers = header_table()
      ctx.headers = headers
    end
    return headers
  end,
  -- Requests of this address that reached this condition within its window, this one included.
  frequency = function(ctx, rule_id, index, seconds)
    local key = "f:" .. ctx.site .. ":" .. rule_id .. ":" .. index .. ":" .. ctx.ip
    return counters:incr(key, 1, 0, seconds) or 1
  end,
}

local PRELUDE = "local K, R, rt = ...\n"
  .. "local re_test, re_maybe, find, upper, tonumber, contains, get_method, var, request_headers, frequency = "
  .. "rt.re_test, rt.re_maybe, rt.find, rt.upper, rt.tonumber, rt.contains, rt.get_method, rt.var, rt.request_headers, rt.frequency\n"
  .. "return function(ctx)\n"

-- One function(ctx) -> the first matching rule of `rules` (a slice of module `module_id`'s rules), or nil.
local function block(rules, module_id)
  local K, R, reads, tests = {}, {}, {}, {}
  local function k(value)
    K[#K + 1] = value
    return #K
  end
  local slots = {}
  -- A request value the block's conditions look at is read once, into a local of the function.
  local function slot(name, expr)
    local s = slots[name]
    if s then return s end
    s = "v" .. (#reads + 1)
    slots[name] = s
    reads[#reads + 1] = ("  local %s = %s\n"):format(s, expr)
    return s
  end
  -- Patterns tested against one value are also tried as one alternation first: when that finds nothing, which is
  -- what an ordinary request gets, none of them is run on its own. "@v@" marks where that answer goes.
  local patterns = {}
  local function pattern(v, regex)
    local re = match.regex(regex)
    -- The API refuses a broken pattern; one that still got here matches nothing.
    if not re then return "false" end
    patterns[v] = patterns[v] or {}
    table.insert(patterns[v], regex)
    return ("(@%s@re_test(K[%d], %s))"):format(v, k(re), v)
  end
  local gen = acl_match.generator(k, slot, pattern, acl_match.read_headers(rules))
  for i, r in ipairs(rules) do
    R[i] = { id = r.id, name = module_id .. ":" .. r.id, action = r.action, url = r.redirectURL, seconds = r.blockSeconds or 3600 }
    local conds = {}
    for j, c in ipairs(r.conditions or {}) do conds[j] = gen.condition(c, r.id, j) end
    if #conds > 0 then
      tests[#tests + 1] = ("  if %s then return R[%d] end\n"):format(table.concat(conds, r.logic == "or" and " or " or " and "), i)
    end
  end
  local prefilter = {}
  for v, list in pairs(patterns) do
    local any = #list > 1 and match.alternation(list)
    if any then
      reads[#reads + 1] = ("  local any_%s = re_maybe(K[%d], %s)\n"):format(v, k(any), v)
      prefilter[v] = ("any_%s and "):format(v)
    end
  end
  local body = table.concat(tests):gsub("@(v%d+)@", function(v) return prefilter[v] or "" end)
  local src = PRELUDE .. table.concat(reads) .. body .. "end\n"
  local chunk = assert(load(src, "=acl", "t"))
  return chunk(K, R, RUNTIME)
end

-- A module's rules as one function(ctx) -> the first matching rule, or nil.
local function matcher(rules, module_id)
  local blocks, current, count = {}, {}, 0
  for _, r in ipairs(rules or {}) do
    local n = #(r.conditions or {})
    if count > 0 and count + n > BLOCK_CONDITIONS then
      blocks[#blocks + 1] = block(current, module_id)
      current, count = {}, 0
    end
    current[#current + 1] = r
    count = count + n
  end
  if #current > 0 then blocks[#blocks + 1] = block(current, module_id) end
  if #blocks == 0 then return function() return nil end end
  -- The blocks chained by calls rather than looped over: a loop would keep the access phase from one trace.
  local chain = blocks[#blocks]
  for i = #blocks - 1, 1, -1 do
    local head, rest = blocks[i], chain
    chain = function(ctx) return head(ctx) or rest(ctx) end
  end
  return chain
end

-- Compiles a site's modules: domain name -> the matcher of the module assigned to it.
function _M.compile(modules)
  local by_domain = {}
  for _, m in ipairs(modules or {}) do
    -- A module sent without its id (an older control plane) names its rules ":<rule>".
    local first_match = matcher(m.rules, m.id and tostring(m.id) or "")
    for _, d in ipairs(m.domains or {}) do by_domain[d] = first_match end
  end
  return by_domain
end

local function act(rule, ctx)
  local a = rule.action
  if a == "allow" then return "allow" end
  if a == "deny" then return page.send(929, "acl", nil, rule.name) end
  page.note("acl", rule.name, a)
  if a == "dropBlacklist" then blocked.add(ctx.site, ctx.ip, "acl", rule.seconds) end
  if a == "drop" or a == "dropBlacklist" then return ngx.exit(444) end
  if a == "redirect301" then return ngx.redirect(rule.url, 301) end
  if a == "redirect302" then return ngx.redirect(rule.url, 302) end
end

-- ctx: the access step's request context ({ site, name, ip, key }); the rules are those of the domain name (as
-- configured, a wildcard as such) the request's server serves: the live domain's, else the server block's own.
function _M.run(ctx, compiled)
  local match = compiled and compiled[ctx.name or ngx.var.server_name]
  if not match then return end
  local rule = match(ctx)
  if rule then return act(rule, ctx) end
end

return _M
