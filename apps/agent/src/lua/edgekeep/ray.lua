-- The ray id of a request: its request id, then the parts the zone's owner chose, in this order: "n" and the
-- node's id, "s" and the site's id (on a site's request), the start time in Unix seconds; joined by "-". Sent as
-- X-Ray-ID on every response, written to the access line ($ek_ray) and shown on the block pages, so that what a
-- visitor reports leads to the node, the site and the line.
local zone = require "edgekeep.zone"
local format = string.format

local _M = {}

-- The request id, 32 hex digits as nginx's $request_id: 24 random ones drawn once per worker (from a $request_id),
-- then this worker's count of ids in 8, drawn again when the count runs out. nginx draws 16 random bytes for every
-- $request_id, which cost a request more than the rest of its ray id.
local prefix, count = nil, 0
local function next_id()
  if not prefix or count == 0xffffffff then
    prefix = ngx.var.request_id:sub(1, 24)
    count = 0
  end
  count = count + 1
  -- one string made, where the count's digits and then the id would be two
  return format("%s%08x", prefix, count)
end

-- This request's id, made at its first use and kept in ngx.ctx (a block page and the header filter show the same)
-- and in $ek_request_id for the access line. `ctx`: the request's ngx.ctx where the caller has it.
local function request_id(ctx)
  ctx = ctx or ngx.ctx
  local id = ctx.ek_request_id
  if id then return id end
  id = next_id()
  ctx.ek_request_id = id
  ngx.var.ek_request_id = id
  return id
end

-- This worker's reading of the zone's ray setting, again only when the zone changed.
local setting = {}

local function current(z)
  z = z or zone.view()
  if setting.zone ~= z then
    local wants = {}
    for _, part in ipairs(z.ray.parts) do wants[part] = true end
    setting = { zone = z, node = wants.node and "-n" .. z.ray.node or "", site = wants.site, time = wants.time }
  end
  return setting
end

function _M.id(z, ctx)
  local s = current(z)
  local id = request_id(ctx) .. s.node
  if s.site then
    local site = ngx.var.ek_site
    if site and site ~= "" then id = id .. "-s" .. site end
  end
  if s.time then id = id .. "-" .. math.floor(ngx.req.start_time()) end
  return id
end

-- Header filter of every response.
function _M.header_filter()
  local id = _M.id()
  ngx.header["X-Ray-ID"] = id
  ngx.var.ek_ray = id
end

-- Header filter of the fixed servers: $ek_ray only, which their add_header sends as X-Ray-ID after this filter
-- (render/live-server.ts), for less than the header set from here costs.
function _M.mark(z, ctx)
  ngx.var.ek_ray = _M.id(z, ctx)
end

return _M
