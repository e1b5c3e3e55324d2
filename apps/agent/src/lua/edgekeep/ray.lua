-- The ray id of a request: nginx's request id, then the parts the zone's owner chose, in this order: "n" and the
-- node's id, "s" and the site's id (on a site's request), the start time in Unix seconds; joined by "-". Sent as
-- X-Ray-ID on every response, written to the access line ($ek_ray) and shown on the block pages, so that what a
-- visitor reports leads to the node, the site and the line.
local zone = require "edgekeep.zone"

local _M = {}
-- This worker's reading of the zone's ray setting, again only when the zone changed.
local setting = {}

local function current()
  local z = zone.view()
  if setting.zone ~= z then
    local wants = {}
    for _, part in ipairs(z.ray.parts) do wants[part] = true end
    setting = { zone = z, node = wants.node and "-n" .. z.ray.node or "", site = wants.site, time = wants.time }
  end
  return setting
end

function _M.id()
  local s = current()
  local id = ngx.var.request_id .. s.node
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

return _M
