-- The site's IP blacklist and whitelist. An entry is an address, a CIDR block or a range, alone (a string) or
-- with conditions { ip, url, methods, port }: then it applies only to requests whose path starts with url, whose
-- method is one of methods, and that arrived on port.
local data = require "edgekeep.data"
local iplist = require "edgekeep.iplist"

local _M = {}

local function compile(entries)
  local plain, cond = {}, {}
  for _, e in ipairs(entries) do
    if type(e) == "string" then
      plain[#plain + 1] = e
    elseif type(e) == "table" and type(e.ip) == "string" then
      local url = type(e.url) == "string" and e.url ~= "" and e.url or nil
      local methods = nil
      if type(e.methods) == "table" and #e.methods > 0 then
        methods = {}
        for _, m in ipairs(e.methods) do methods[tostring(m):upper()] = true end
      end
      local port = tonumber(e.port)
      if port == 0 then port = nil end
      if not url and not methods and not port then
        plain[#plain + 1] = e.ip
      else
        local lo, hi = iplist.range(e.ip)
        if lo then cond[#cond + 1] = { lo = lo, hi = hi, url = url, methods = methods, port = port } end
      end
    end
  end
  return { ranges = iplist.compile(plain), cond = cond }
end

data.compiler("blacklist", compile)
data.compiler("whitelist", compile)

local function matches(list, ctx)
  if iplist.contains(list.ranges, ctx.key) then return true end
  -- Most lists have no conditional entries; an empty loop would still keep the access phase from being compiled.
  if #list.cond == 0 then return false end
  for _, c in ipairs(list.cond) do
    if ctx.key >= c.lo and ctx.key <= c.hi and #ctx.key == #c.lo
      and (not c.url or ngx.var.uri:sub(1, #c.url) == c.url)
      and (not c.methods or c.methods[ngx.req.get_method()])
      and (not c.port or tonumber(ngx.var.server_port) == c.port) then
      return true
    end
  end
  return false
end

-- Access step: a whitelisted request skips every later step.
function _M.whitelist(ctx)
  local list = data.rules(ctx, "whitelist")
  if list and matches(list, ctx) then return "allow" end
end

function _M.blacklist(ctx)
  local list = data.rules(ctx, "blacklist")
  if list and matches(list, ctx) then return ctx.deny("blacklist") end
end

return _M
