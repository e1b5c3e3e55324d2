-- The ray id of a request: nginx's request id, then the parts the zone's owner chose, in this order: "n" and the
-- node's id, "s" and the site's id (on a site's request), the start time in Unix seconds; joined by "-". Sent as
-- X-Ray-ID on every response, written to the access line ($ek_ray) and shown on the block pages, so that what a
-- visitor reports leads to the node, the site and the line.
local zone = require "edgekeep.zone"

local _M = {}

function _M.id()
  local ctx = ngx.ctx
  if ctx.ray then return ctx.ray end
  local ray = zone.view().ray
  local id = ngx.var.request_id
  for _, part in ipairs(ray.parts) do
    if part == "node" then
      id = id .. "-n" .. ray.node
    elseif part == "site" then
      local site = ngx.var.ek_site
      if site and site ~= "" then id = id .. "-s" .. site end
    elseif part == "time" then
      id = id .. "-" .. math.floor(ngx.req.start_time())
    end
  end
  ctx.ray = id
  return id
end

-- Header filter of every response.
function _M.header_filter()
  local id = _M.id()
  ngx.header["X-Ray-ID"] = id
  ngx.var.ek_ray = id
end

return _M
